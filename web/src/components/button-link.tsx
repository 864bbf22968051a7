import { AppLink, type AppLinkProps } from '../lib/navigation';
import { buttonClasses, type ButtonStyleOptions } from './button';

export type ButtonLinkProps = AppLinkProps & ButtonStyleOptions;

/** A link styled as a Button (navigation stays a link for assistive tech). Works in the app and on the marketing entry. */
export function ButtonLink({ variant, size, fullWidth, className, ...rest }: ButtonLinkProps) {
  return <AppLink className={buttonClasses({ variant, size, fullWidth, className })} {...rest} />;
}
