import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Alert, Button, EmptyState, Spinner, TextField } from '../../web/src/components';

describe('shared components', () => {
  it('Button: loading disables it, marks it busy and keeps the label', async () => {
    const onClick = jest.fn();
    render(
      <Button loading onClick={onClick}>
        Generate Image (1 Credit)
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Generate Image (1 Credit)' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveAttribute('type', 'button');
    await userEvent.setup().click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('TextField: label, required and error are wired for assistive tech', () => {
    render(<TextField label="Email" type="email" required error="Please fill in all fields." />);
    const input = screen.getByLabelText(/Email/);
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Please fill in all fields.');
  });

  it('Alert: errors are alerts, success and info are status messages', () => {
    const { rerender } = render(<Alert variant="error">Failed to send message.</Alert>);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to send message.');
    rerender(<Alert variant="success">Payment was canceled.</Alert>);
    expect(screen.getByRole('status')).toHaveTextContent('Payment was canceled.');
  });

  it('Spinner and EmptyState render their text', () => {
    render(
      <>
        <Spinner />
        <EmptyState title="No image generated yet." />
      </>,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.getByText('No image generated yet.')).toBeInTheDocument();
  });
});
