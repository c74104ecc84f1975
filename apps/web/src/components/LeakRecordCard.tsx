import { LEAK_FIELD_LABELS, type LeakRecord, messages } from '@footprint/domain';
import { useId, useMemo, useState } from 'react';
import {
  formatBreachDate,
  hasMatch,
  type LeakNeedles,
  recordFields,
  type Segment,
} from '../lib/leak-highlight.ts';
import { originsOf } from '../lib/leak-origins.ts';
import { CopyButton } from './CopyButton.tsx';

/** Lets a long e-mail address wrap before its '@' rather than in the middle of a word. */
function Breakable({ text }: { text: string }) {
  const at = text.lastIndexOf('@');
  if (at <= 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <wbr />
      {text.slice(at)}
    </>
  );
}

/** A value with its matched stretches in <mark>; text only, never HTML. */
function Highlighted({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.match ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of one value never reorder
          <mark key={index} className="leak-mark">
            <Breakable text={segment.text} />
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of one value never reorder
          <span key={index}>
            <Breakable text={segment.text} />
          </span>
        ),
      )}
    </>
  );
}

const monoFields = new Set(['email', 'phone', 'username']);

/**
 * One leaked record (the spec shows none; this is what an investigator needs): where it leaked and
 * when, where it was found (the local index and/or a leak-search vendor), what it matched on, then
 * every field it holds with the searched values marked and a copy button each. The breach's
 * description opens from the header.
 */
export function LeakRecordCard({ record, needles }: { record: LeakRecord; needles: LeakNeedles }) {
  const [aboutOpen, setAboutOpen] = useState(false);
  const id = useId();
  const fields = useMemo(() => recordFields(record, needles), [record, needles]);
  const sourceName = record.source?.name?.trim() || messages.leaks.unknownSource;
  const breachDate = record.source?.breach_date?.trim() || null;
  const description = record.source?.description?.trim() || null;
  const origins = useMemo(() => originsOf(record), [record]);
  // A vendor's record id is an opaque digest: its origin label says more than the id would.
  const indexed = origins.length === 0 || origins.some((origin) => origin.kind === 'local');
  const matched = Array.isArray(record.matched)
    ? record.matched.filter((type) => type in LEAK_FIELD_LABELS)
    : [];

  return (
    <li>
      <article className="card leak-card" aria-labelledby={`${id}-source`}>
        <header className="leak-card-header">
          <div className="min-w-0 flex-1">
            <h3 id={`${id}-source`} className="leak-source" title={description ?? undefined}>
              <svg
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.75"
                strokeLinecap="round"
                strokeLinejoin="round"
                aria-hidden="true"
                focusable="false"
                className="size-4 shrink-0 text-danger"
              >
                <ellipse cx="12" cy="5.5" rx="7.5" ry="2.5" />
                <path d="M4.5 5.5v13c0 1.4 3.4 2.5 7.5 2.5s7.5-1.1 7.5-2.5v-13M4.5 12c0 1.4 3.4 2.5 7.5 2.5s7.5-1.1 7.5-2.5" />
              </svg>
              <span className="min-w-0 break-words">{sourceName}</span>
            </h3>
            <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
              {breachDate && (
                <span>
                  {messages.leaks.breached}{' '}
                  <time dateTime={breachDate} className="font-medium text-text/90 tabular-nums">
                    {formatBreachDate(breachDate)}
                  </time>
                </span>
              )}
              {record.id && indexed && (
                <span className="font-mono tabular-nums">
                  {messages.leaks.recordId} #{record.id}
                </span>
              )}
              {origins.length > 0 && (
                <span className="inline-flex flex-wrap items-center gap-1">
                  <span className="sr-only">{messages.leaks.foundIn}:</span>
                  {origins.map((origin) => (
                    <span
                      key={`${origin.kind}:${origin.name}`}
                      className={`source-chip ${origin.kind === 'local' ? 'chip-slate' : 'chip-violet'}`}
                      title={`${messages.leaks.foundIn} ${origin.name}`}
                    >
                      {origin.name}
                    </span>
                  ))}
                </span>
              )}
            </p>
          </div>
          {description && (
            <button
              type="button"
              className="leak-about-toggle"
              aria-expanded={aboutOpen}
              aria-controls={`${id}-about`}
              onClick={() => setAboutOpen((open) => !open)}
            >
              <span className="sr-only sm:not-sr-only">{messages.leaks.aboutBreach}</span>
              <svg
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.75"
                strokeLinecap="round"
                aria-hidden="true"
                focusable="false"
                className="size-4 shrink-0"
              >
                <circle cx="12" cy="12" r="9" />
                <path d="M12 11v5M12 7.8v.1" />
              </svg>
            </button>
          )}
        </header>

        {description && aboutOpen && (
          <p id={`${id}-about`} className="leak-about">
            {description}
          </p>
        )}

        {matched.length > 0 && (
          <p className="mt-2 flex flex-wrap items-center gap-1.5 text-[0.7rem] text-muted">
            <span className="font-medium tracking-wide uppercase">{messages.leaks.matchedOn}</span>
            {matched.map((type) => (
              <span key={type} className="source-chip chip-amber">
                {LEAK_FIELD_LABELS[type]}
              </span>
            ))}
          </p>
        )}

        <dl className="leak-fields">
          {fields.map((field) => (
            <div key={field.key} className={`leak-field ${hasMatch(field.segments) ? 'leak-field-hit' : ''}`}>
              <dt className="leak-field-label">{field.label}</dt>
              <dd className="leak-field-value">
                <span
                  className={`min-w-0 flex-1 break-words ${monoFields.has(field.key) ? 'font-mono text-[0.8rem]' : ''}`}
                >
                  <Highlighted segments={field.segments} />
                </span>
                <CopyButton
                  text={field.value}
                  label={messages.leaks.copyField(field.label)}
                  className="shrink-0"
                />
              </dd>
            </div>
          ))}
        </dl>
      </article>
    </li>
  );
}
