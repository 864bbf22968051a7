export { Alert, type AlertProps, type AlertVariant } from './alert';
export { Button, buttonClasses, type ButtonProps, type ButtonSize, type ButtonVariant, type ButtonStyleOptions } from './button';
export { ButtonLink, type ButtonLinkProps } from './button-link';
export { Card, type CardProps } from './card';
export { EmptyState, type EmptyStateProps } from './empty-state';
export { Logo, LogoMark } from './logo';
export { Modal, type ModalProps } from './modal';
export { PageLoader, Spinner, type SpinnerProps } from './spinner';
export { TextAreaField, TextField, type TextAreaFieldProps, type TextFieldProps } from './text-field';
