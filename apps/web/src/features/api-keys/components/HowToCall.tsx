import { messages } from '@footprint/domain';
import { CopyButton } from '../../../components/CopyButton.tsx';
import { Section } from './Section.tsx';

const t = messages.apiKeys;

/** A curl line for this deployment's own origin, with a placeholder for the key. */
export function HowToCall() {
  const origin = window.location.origin;
  const example = `curl -H "Authorization: Bearer fp_…" \\\n  "${origin}/api/tel?number=919876543210"`;
  return (
    <Section title={t.howToCall} lead={t.howToCallLead}>
      <div className="flex items-start gap-2 rounded-lg border border-line bg-night px-3 py-2">
        <pre
          className="min-w-0 flex-1 font-mono text-sm break-all whitespace-pre-wrap text-text"
          data-testid="curl-example"
        >
          {example}
        </pre>
        <CopyButton text={example.replace(' \\\n ', '')} label={t.howToCall} className="shrink-0" />
      </div>
      <p className="mt-3 text-sm text-muted">
        <a className="text-accent underline-offset-2 hover:underline" href="/api/docs">
          /api/docs
        </a>
        {' · '}
        <a className="text-accent underline-offset-2 hover:underline" href="/api/openapi.json">
          /api/openapi.json
        </a>
      </p>
    </Section>
  );
}
