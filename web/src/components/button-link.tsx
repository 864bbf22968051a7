import { Link, type LinkProps } from 'react-router-dom';
import { buttonClasses, type ButtonStyleOptions } from './button';

export type ButtonLinkProps = LinkProps & ButtonStyleOptions;

/** A router link styled as a Button (navigation stays a link for assistive tech). */
export function ButtonLink({ variant, size, fullWidth, className, ...rest }: ButtonLinkProps) {
  return <Link className={buttonClasses({ variant, size, fullWidth, className })} {...rest} />;
}
