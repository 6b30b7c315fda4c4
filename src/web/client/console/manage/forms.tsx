import type { FormEvent, ReactNode } from 'react';

// The shapes the settings screens share: a labelled inline form, its name field, a choice of bot,
// and the error line above a section (the account pages use it too).

/** A form whose submit button carries its label (the form's accessible name too). */
export function Form({ label, onSubmit, children }: { label: string; onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      className="inline-form"
      aria-label={label}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <button type="submit">{label}</button>
    </form>
  );
}

export const Failure = ({ error }: { error: string | null }) => (error ? <p role="alert" className="error">{error}</p> : null);

/** The name a new department, group, bot or knowledge base is asked for. */
export function NameField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <label>
      Name <input required value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

/** The project's bots as the options of a select (its "none" option is the select's own). */
export function BotOptions({ bots }: { bots: Array<{ _id: string; name: string }> | undefined }) {
  return (
    <>
      {bots?.map((b) => (
        <option key={b._id} value={b._id}>
          {b.name}
        </option>
      ))}
    </>
  );
}
