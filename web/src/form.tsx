import type { JSX } from 'preact';
import { useId, useState } from 'preact/hooks';

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

/** A password being chosen, with the API's rules as its hint and its length bound (the API checks the rest). */
export function NewPasswordField({
  label,
  name,
  value,
  onValue,
  note,
}: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  note?: string;
}) {
  return (
    <Field
      label={label}
      type="password"
      name={name}
      autocomplete="new-password"
      required
      minLength={10}
      hint={`At least 10 characters, and not your e-mail.${note ? ` ${note}` : ''}`}
      value={value}
      onInput={(e) => onValue(inputValue(e))}
    />
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
export const selectValue = (event: Event) => (event.currentTarget as HTMLSelectElement).value;

/** A choice of the connected upstream account's bases, with its visible label and an empty first choice. */
export function BaseSelect({
  id,
  label,
  bases,
  value,
  onPick,
}: {
  id: string;
  label: string;
  bases: Array<{ restId: string; name: string }>;
  value: string;
  onPick: (restId: string) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} required value={value} onChange={(e) => onPick(selectValue(e))}>
        <option value="">Pick a base…</option>
        {bases.map((b) => (
          <option key={b.restId} value={b.restId}>
            {b.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A form's submit handler around a call: busy while it runs, its error kept to show (ErrorMessage) if it fails. */
export function useSubmit(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit };
}
