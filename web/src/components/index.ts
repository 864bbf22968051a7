export { Alert } from './alert';
export { Button } from './button';
export { EmptyState } from './empty-state';
export { Spinner } from './spinner';
export { TextField } from './text-field';
