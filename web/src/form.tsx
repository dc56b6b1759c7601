import type { JSX } from 'preact';
import { useId } from 'preact/hooks';

type FieldProps = JSX.IntrinsicElements['input'] & { label: string; hint?: string };

/** An input with its visible label (and an optional hint read out with it). */
export function Field({ label, hint, ...input }: FieldProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** The API's error message, announced when it appears. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

export const inputValue = (event: Event) => (event.currentTarget as HTMLInputElement).value;
