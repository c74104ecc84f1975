import { messages, type SourcePanel as Panel, type SourceState } from '@footprint/domain';
import { Icon } from '../../../components/Icon.tsx';

/** Each state's icon and colour; the state is always written out beside them. */
const STATE_LOOKS: Record<SourceState, { tone: string; icon: string }> = {
  ok: { tone: 'source-state-ok', icon: 'M5 12.5 10 17.5 19 7' },
  not_found: { tone: 'source-state-quiet', icon: 'M6 12h12' },
  not_configured: {
    tone: 'source-state-quiet',
    icon: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM5.6 5.6l12.8 12.8',
  },
  rate_limited: { tone: 'source-state-warn', icon: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 2' },
  timed_out: { tone: 'source-state-warn', icon: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 2' },
  failed: { tone: 'source-state-bad', icon: 'M6 6l12 12M18 6 6 18' },
};

const SUMMARY_ICONS = {
  complete: 'M5 12.5 10 17.5 19 7',
  partial: 'M12 9v4M12 17h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
};

/**
 * What became of every source of the lookup, said compactly: one line ('9 of 11 sources answered · 2
 * not configured') that opens onto the list of sources, each with its state, its message when that says
 * more, and who answers it (live with the vendor's name, or the sandbox). A source that did not answer
 * is not a finding about the person, but the investigator must know the picture is partial.
 */
export function SourcePanel({ panel }: { panel: Panel }) {
  const words = messages.sources;
  // 'No record' is an answer; any other missing source leaves the picture partial.
  const complete = panel.lines.every((line) => line.state === 'ok' || line.state === 'not_found');
  return (
    <details className="source-panel group">
      <summary className="source-panel-summary">
        <Icon
          d={complete ? SUMMARY_ICONS.complete : SUMMARY_ICONS.partial}
          className={`size-4 ${complete ? 'text-success' : 'text-warning'}`}
          strokeWidth={2}
        />
        <span className="min-w-0">
          <span className="sr-only">{words.heading}: </span>
          {panel.summary}
        </span>
        <Icon
          d="m6 9 6 6 6-6"
          className="size-4 transition-transform group-open:rotate-180"
          strokeWidth={2}
        />
      </summary>
      <div className="source-panel-body">
        {panel.derived && <p className="px-1 pb-2 text-xs text-muted">{words.derived}</p>}
        <div className="source-line source-line-head" aria-hidden="true">
          <span className="source-line-name">{words.columns.source}</span>
          <span className="source-state">{words.columns.status}</span>
          <span className="source-line-mode">{words.columns.answeredBy}</span>
        </div>
        <ul aria-label={words.heading} className="divide-y divide-line/60">
          {panel.lines.map((line) => {
            const look = STATE_LOOKS[line.state];
            return (
              <li key={line.source} className="source-line">
                <span className="source-line-name">
                  {line.label}
                  <span className="sr-only">: </span>
                </span>
                <span className={`source-state ${look.tone}`}>
                  <Icon d={look.icon} className="size-3.5" strokeWidth={2} />
                  {line.stateText}
                  <span className="sr-only">{line.detail ? ': ' : ', '}</span>
                </span>
                {line.detail && (
                  <span className="source-line-detail">
                    {line.detail}
                    <span className="sr-only">, </span>
                  </span>
                )}
                <span className="source-line-mode">{line.modeText}</span>
              </li>
            );
          })}
        </ul>
      </div>
    </details>
  );
}
