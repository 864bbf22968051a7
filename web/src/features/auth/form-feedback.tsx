import { Link } from 'react-router-dom';
import { Alert } from '../../components/alert';
import { textLinkClass } from '../../components/link-styles';

export interface FeedbackAction {
  label: string;
  to: string;
}

/** The line an account form shows above its fields: what went wrong, what happened, or what to do next. */
export type Feedback = { variant: 'error' | 'success' | 'info'; text: string; action?: FeedbackAction } | undefined;

/** The form's feedback in an alert (errors are announced at once), with its follow-up link if it has one. */
export function FormFeedback({ feedback, className = 'mb-5' }: { feedback: Feedback; className?: string }) {
  if (!feedback) return null;
  return (
    <Alert variant={feedback.variant} className={className}>
      {feedback.action ? (
        <>
          <p>{feedback.text}</p>
          <Link to={feedback.action.to} className={`${textLinkClass} mt-1 inline-block`}>
            {feedback.action.label}
          </Link>
        </>
      ) : (
        feedback.text
      )}
    </Alert>
  );
}
