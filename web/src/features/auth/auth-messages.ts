/** The account pages' user-visible text. The spec's messages (sections 4, 5, 8) are verbatim. */
export const AuthMessages = {
  // Signup (spec)
  passwordsDoNotMatch: 'Passwords do not match',
  verificationSent: 'Verification email sent! Please check your inbox and verify your email before logging in.',
  signupError: (reason: string) => `Signup error: ${reason}`,
  // Login (spec)
  verifyBeforeLogin: 'Please verify your email before logging in. Check your inbox for a verification link.',
  loginError: (reason: string) => `Login error: ${reason}`,
  enterEmailFirst: 'Please enter your email address first.',
  resetEmailSent: 'Password reset email sent. Please check your inbox.',
  resetEmailFailed: (reason: string) => `Failed to send reset email: ${reason}`,
  // Password change (spec)
  currentPasswordRequired: 'Please enter your current password to proceed.',
  noUser: 'No user is signed in.',
  newPasswordsDoNotMatch: 'Passwords do not match.',
  updatePasswordFailed: (reason: string) => `Failed to update password: ${reason}`,
  passwordUpdated: 'Password updated successfully!',
  // Ours, in the same voice
  fillAllFields: 'Please fill in all fields.',
  enterCode: 'Please enter the code from the email.',
  verifying: 'Verifying your email...',
  verified: 'Email verified! You can now log in.',
  verifyError: (reason: string) => `Verification error: ${reason}`,
  codeResent: (email: string) => `A new verification code has been sent to ${email}.`,
  resendFailed: (reason: string) => `Failed to send a new code: ${reason}`,
  passwordReset: 'Your password has been reset. You can now log in with your new password.',
  resetFailed: (reason: string) => `Failed to reset password: ${reason}`,
} as const;
