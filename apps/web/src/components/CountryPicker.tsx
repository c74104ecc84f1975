import { COUNTRIES, type Country, messages, searchCountries } from '@footprint/domain';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';

export type { Country };

export interface CountryPickerProps {
  value: Country;
  onChange: (country: Country) => void;
  disabled?: boolean;
  /** Where focus goes after a choice (usually the number input next to the picker). */
  onChosen?: () => void;
}

const PAGE = 8;

let flagEmoji: boolean | undefined;

/**
 * Whether this system draws flag emoji (Windows and many Linux desktops show two letters in boxes
 * instead). Checked once by drawing one flag on a canvas and looking for colour.
 */
function supportsFlagEmoji(): boolean {
  if (flagEmoji !== undefined) return flagEmoji;
  flagEmoji = false;
  try {
    const canvas = document.createElement('canvas');
    canvas.width = 24;
    canvas.height = 24;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) return flagEmoji;
    context.font = '18px sans-serif';
    context.textBaseline = 'top';
    context.fillText(COUNTRIES[0]?.flag ?? '', 0, 0);
    const pixels = context.getImageData(0, 0, 24, 24).data;
    for (let i = 0; i < pixels.length; i += 4) {
      const [r = 0, g = 0, b = 0, a = 0] = [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]];
      if (a > 0 && (Math.abs(r - g) > 40 || Math.abs(g - b) > 40)) {
        flagEmoji = true;
        break;
      }
    }
  } catch {
    // No canvas (tests, locked-down browsers): the short name stands in for the flag.
  }
  return flagEmoji;
}

/** The flag, or where flags cannot be drawn, the short name in a small badge. */
function Flag({ country, withFallback }: { country: Country; withFallback: boolean }) {
  if (supportsFlagEmoji()) {
    return (
      <span aria-hidden="true" className="text-lg leading-none">
        {country.flag}
      </span>
    );
  }
  if (!withFallback) return null;
  return (
    <span
      aria-hidden="true"
      data-glyph={country.code}
      className="glyph inline-flex h-4 min-w-6 items-center justify-center rounded-sm bg-surface-2 px-0.5 font-mono text-[0.6rem] font-bold text-muted ring-1 ring-line"
    />
  );
}

/**
 * The dial-code picker of the phone search (spec §2.4): a button showing the flag and '+code', which
 * opens a searchable list of the 38 countries. Search matches the name or the dial code; with no match
 * the whole list stays. Keyboard: arrows, Page Up/Down, Enter to choose, Escape or Tab to leave.
 * Built on the ARIA combobox pattern: the filter input owns the listbox through aria-activedescendant.
 */
export function CountryPicker({ value, onChange, disabled = false, onChosen }: CountryPickerProps) {
  const id = useId();
  const popupId = `${id}-popup`;
  const listId = `${id}-list`;
  const optionId = (code: string) => `${id}-opt-${code}`;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [activeIndex, setActiveIndex] = useState(0);
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);

  const options = useMemo(() => searchCountries(query), [query]);
  const active = options[Math.min(activeIndex, options.length - 1)];

  const openList = () => {
    if (disabled) return;
    setQuery('');
    const selected = COUNTRIES.findIndex((country) => country.code === value.code);
    setActiveIndex(Math.max(0, selected));
    setOpen(true);
  };

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  };

  const choose = (country: Country) => {
    onChange(country);
    setOpen(false);
    if (onChosen) onChosen();
    else trigger.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    input.current?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  // Keeps the highlighted option visible while moving with the keyboard.
  useEffect(() => {
    if (!open || !active) return;
    const element = list.current?.querySelector<HTMLElement>(`[data-code="${active.code}"]`);
    element?.scrollIntoView({ block: 'nearest' });
  }, [open, active]);

  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = options.length - 1;
    const current = Math.min(activeIndex, last);
    const moves: Record<string, () => number> = {
      ArrowDown: () => Math.min(last, current + 1),
      ArrowUp: () => Math.max(0, current - 1),
      PageDown: () => Math.min(last, current + PAGE),
      PageUp: () => Math.max(0, current - PAGE),
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      setActiveIndex(move());
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      if (active) choose(active);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  const onTriggerKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openList();
    }
  };

  return (
    <div ref={wrapper} className="relative shrink-0">
      <button
        ref={trigger}
        type="button"
        disabled={disabled}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? popupId : undefined}
        aria-label={messages.countryPicker.button(value.name, value.dialCode)}
        onClick={() => (open ? close(false) : openList())}
        onKeyDown={onTriggerKey}
        className="input flex h-full min-h-11 w-auto items-center gap-1.5 pr-2 pl-3 font-medium tabular-nums hover:border-accent disabled:opacity-60"
      >
        <Flag country={value} withFallback />
        <span>+{value.dialCode}</span>
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
          focusable="false"
          className={`size-4 text-muted transition-transform ${open ? 'rotate-180' : ''}`}
        >
          <path d="m6 9 6 6 6-6" />
        </svg>
      </button>

      {open && (
        <div
          id={popupId}
          className="dropdown-enter absolute top-full left-0 z-40 mt-2 w-[min(20rem,calc(100vw-2.5rem))] origin-top-left overflow-hidden rounded-xl border border-line bg-surface shadow-2xl shadow-black/50"
        >
          <div className="border-b border-line p-2">
            <input
              ref={input}
              type="text"
              role="combobox"
              aria-label={messages.countryPicker.filterLabel}
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={active ? optionId(active.code) : undefined}
              autoComplete="off"
              spellCheck={false}
              placeholder={messages.countryPicker.filterPlaceholder}
              value={query}
              onChange={(event) => {
                setQuery(event.target.value);
                setActiveIndex(0);
              }}
              onKeyDown={onInputKey}
              className="input"
            />
          </div>
          <div
            ref={list}
            id={listId}
            role="listbox"
            aria-label={messages.countryPicker.listLabel}
            tabIndex={-1}
            className="max-h-72 overflow-y-auto overscroll-contain py-1"
          >
            {options.map((country, index) => {
              const selected = country.code === value.code;
              const highlighted = country.code === active?.code;
              return (
                // Keyboard use goes through the combobox input above (aria-activedescendant).
                // biome-ignore lint/a11y/useKeyWithClickEvents: the input handles the keys for the listbox
                <div
                  key={country.code}
                  tabIndex={-1}
                  id={optionId(country.code)}
                  data-code={country.code}
                  role="option"
                  aria-selected={selected}
                  onPointerMove={() => setActiveIndex(index)}
                  onClick={() => choose(country)}
                  className={`flex cursor-pointer items-center gap-3 px-3 py-2 text-sm ${
                    highlighted ? 'bg-accent-soft/70 text-text' : 'text-text/90'
                  }`}
                >
                  <Flag country={country} withFallback={false} />
                  <span className="min-w-0 flex-1 truncate">{country.name}</span>
                  <span className="font-mono text-xs text-muted">{country.code}</span>
                  <span className="w-12 text-right font-medium tabular-nums text-accent">
                    +{country.dialCode}
                  </span>
                  {selected && <span className="sr-only">{messages.countryPicker.selected}</span>}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}

export default CountryPicker;
