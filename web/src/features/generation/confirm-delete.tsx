import { Button } from '../../components/button';
import { Modal } from '../../components/modal';

export interface ConfirmDeleteProps {
  open: boolean;
  /** 'image', 'video' or 'prompt'. */
  noun: string;
  prompt: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before deleting a result: it removes the file too, and cannot be undone. */
export function ConfirmDelete({ open, noun, prompt, onCancel, onConfirm }: ConfirmDeleteProps) {
  return (
    <Modal
      open={open}
      onClose={onCancel}
      size="sm"
      title={`Delete this ${noun}?`}
      description="It will be removed from your account for good, with its file."
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm}>
            Delete
          </Button>
        </>
      }
    >
      {prompt ? <p className="line-clamp-3 break-words text-ink">“{prompt}”</p> : undefined}
    </Modal>
  );
}
