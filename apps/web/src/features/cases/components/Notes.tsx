import { type CaseDetail, messages } from '@footprint/domain';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify';
import { formatDateTime } from '../../../lib/datetime.ts';
import { fieldFailure, isSessionEnd } from '../../../lib/field-errors.ts';
import { useAddNote } from '../api/addNote.ts';

const t = messages.cases;

export function Notes({ detail }: { detail: CaseDetail }) {
  const id = useId();
  const add = useAddNote(detail.id);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const closed = detail.status === 'closed';
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (add.isPending) return;
    if (!body.trim()) {
      setError(messages.cases.noteLabel);
      return;
    }
    try {
      await add.mutateAsync(body);
      setBody('');
      setError(null);
      toast.success(t.noteAdded);
    } catch (err) {
      if (isSessionEnd(err)) return;
      setError(fieldFailure(err, 'body', t.saveFailed));
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="card px-4 py-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-text">
        {t.notesTitle} <span className="section-count">{detail.notes.length}</span>
      </h2>
      {detail.notes.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t.notesEmpty}</p>
      ) : (
        <ol className="mt-2 flex flex-col gap-3">
          {detail.notes.map((note) => (
            <li key={note.id} className="border-l-2 border-line pl-3">
              <p className="whitespace-pre-wrap break-words text-sm text-text">{note.body}</p>
              <p className="mt-0.5 text-xs text-muted">
                {note.author.name} · {formatDateTime(note.created_at)}
              </p>
            </li>
          ))}
        </ol>
      )}
      {!closed && (
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="mt-4 flex flex-col gap-2">
          <label htmlFor={`${id}-note`} className="label">
            {t.noteLabel}
          </label>
          <textarea
            id={`${id}-note`}
            className="input min-h-24"
            value={body}
            maxLength={5000}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-note-error ${id}-note-hint` : `${id}-note-hint`}
            onChange={(event) => setBody(event.target.value)}
          />
          <p id={`${id}-note-hint`} className="text-xs text-muted">
            {t.noteHint}
          </p>
          {error && (
            <p id={`${id}-note-error`} className="field-error">
              {error}
            </p>
          )}
          <button type="submit" className="btn-primary self-start" disabled={add.isPending}>
            {add.isPending ? t.adding : t.addNote}
          </button>
        </form>
      )}
    </section>
  );
}
