import {
  DEFAULT_COUNTRY,
  EMAIL_MAX_LENGTH,
  isUsername,
  isValidEmailInput,
  messages,
  USERNAME_MAX_LENGTH,
} from '@footprint/domain';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { CaseFiling } from '../../components/CaseFiling.tsx';
import { type Country, CountryPicker } from '../../components/CountryPicker.tsx';
import { Icon } from '../../components/Icon.tsx';
import { Overlay } from '../../components/Overlay.tsx';
import { paths } from '../../config/paths.ts';
import { useAuth } from '../../lib/auth-context.ts';
import {
  useCaseReferenceDraft,
  useCaseReferenceField,
  useLegalBasisDraft,
} from '../../lib/case-reference.ts';
import { maySpend, usePaidAnswer } from '../../lib/paid-answer.ts';
import { type SearchType, useSearchType } from '../../lib/search-type.ts';
import { unavailableText, useKindAvailable } from '../../lib/sources.ts';
import type { ResultsState } from '../results/index.ts';
import { useLookupEmail } from './api/lookupEmail.ts';
import { useLookupPhone } from './api/lookupPhone.ts';
import { useLookupUsername, usernameOf } from './api/lookupUsername.ts';
import { phoneDigits, sanitizePhoneInput } from './phone-input.ts';

/**
 * /dashboard: the search screen (spec §2.3, §4 Search, §5, §8). The search type (phone and e-mail, and
 * beyond the spec username) is global: the toggle here and the sidebar's Email/Phone Search set it (the
 * username search has no sidebar entry: the admin's menu would no longer fit a laptop), and any change
 * clears the input and focuses it.
 * Submit checks, in the spec's order: credits, terms, input; then searches behind the 'Searching...'
 * overlay and opens /results with the answer. The phone field drops what a phone number is not written
 * with as it is typed or pasted (phone-input.ts), and an invalid number or username is explained under
 * it. A username loses the '@' people write before a handle, and the screen says its search can take up
 * to a minute (the sites are asked politely, one request at a time each). The case
 * the search is filed under is shown beside the submit button (CaseFiling), checked last, and travels with
 * the search and on to /results, so the detail lookups made there carry it too. A search type this deployment has no source for is not offered: its toggle is
 * off, the screen says why, and the submit stays disabled while it is the chosen type (the server would
 * only answer 503).
 */

const typeOptions: ReadonlyArray<{ type: SearchType; label: string }> = [
  { type: 'tel', label: messages.search.typePhone },
  { type: 'email', label: messages.search.typeEmail },
  { type: 'username', label: messages.search.typeUsername },
];

/** Each search type's field: label, placeholder, the form's name, and what the browser is told of it. */
const fields = {
  tel: {
    label: messages.search.phoneLabel,
    placeholder: messages.search.phonePlaceholder,
    form: messages.mainNav.phoneSearch,
    type: 'tel',
    inputMode: 'numeric',
    // The phone field cuts itself after stripping (phone-input.ts): a browser limit would cut a
    // pasted line before its letters are dropped.
    maxLength: undefined,
  },
  email: {
    label: messages.search.emailLabel,
    placeholder: messages.search.emailPlaceholder,
    form: messages.mainNav.emailSearch,
    type: 'email',
    inputMode: 'email',
    maxLength: EMAIL_MAX_LENGTH,
  },
  username: {
    label: messages.search.usernameLabel,
    placeholder: messages.search.usernamePlaceholder,
    form: messages.mainNav.usernameSearch,
    type: 'text',
    inputMode: 'text',
    maxLength: USERNAME_MAX_LENGTH,
  },
} as const satisfies Record<SearchType, unknown>;

export default function DashboardPage() {
  const navigate = useNavigate();
  const { user } = useAuth();
  const paidAnswer = usePaidAnswer();
  const { searchType, setSearchType } = useSearchType();
  const [value, setValue] = useState('');
  /** What a valid phone number (or username) is, shown under the field after an invalid one was submitted. */
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [country, setCountry] = useState<Country>(DEFAULT_COUNTRY);
  const [termsAccepted, setTermsAccepted] = useState(false);
  const caseReference = useCaseReferenceField(useCaseReferenceDraft(user?.id), {
    legalBasis: useLegalBasisDraft(user?.id),
  });
  const input = useRef<HTMLInputElement>(null);
  const previousType = useRef(searchType);
  const id = useId();
  const phone = useLookupPhone();
  const email = useLookupEmail();
  const username = useLookupUsername();
  const searching = phone.isPending || email.isPending || username.isPending;
  const isTel = searchType === 'tel';
  const isName = searchType === 'username';
  const field = fields[searchType];
  const available = useKindAvailable();
  const unavailable = typeOptions.filter((option) => !available(option.type));
  const chosenUnavailable = !available(searchType);

  // Spec §4: changing the input type (here or from the sidebar) clears the input and focuses it. Results
  // and breach results live on /results and leave with it, so there is nothing else to clear here. The
  // input is cleared in the same render that changes its type, so the e-mail field never shows, even
  // for a frame, the digits typed as a phone number; the focus follows once it is on the page.
  const [valueType, setValueType] = useState(searchType);
  if (valueType !== searchType) {
    setValueType(searchType);
    setValue('');
    setFieldError(null);
  }
  useEffect(() => {
    if (previousType.current === searchType) return;
    previousType.current = searchType;
    input.current?.focus();
  }, [searchType]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (searching || chosenUnavailable) return;
    if (!maySpend(user)) {
      toast.warning(messages.credits.insufficientUpgrade);
      return;
    }
    if (!termsAccepted) {
      toast.error(messages.search.acceptTerms);
      return;
    }
    // A username searches as typed, trimmed and without the '@' people write before a handle.
    const typed = isName ? usernameOf(value) : value.trim();
    const digits = isTel ? phoneDigits(typed, country.dialCode) : null;
    if (isTel ? digits === null : isName ? !isUsername(typed) : !isValidEmailInput(typed)) {
      toast.error(
        isTel
          ? messages.search.invalidPhone
          : isName
            ? messages.search.invalidUsername
            : messages.search.invalidEmail,
      );
      if (isTel) setFieldError(messages.search.phoneRule(country.dialCode));
      if (isName) setFieldError(messages.search.usernameRule);
      input.current?.focus();
      return;
    }
    // A phone number searches (and shows on /results) as its 10 digits, however it was written.
    const userInput = digits ?? typed;
    const referenceProblem = caseReference.check();
    if (referenceProblem) {
      toast.error(referenceProblem);
      return;
    }
    const reference = caseReference.param;
    const basis = caseReference.legalBasisParam;
    const carried = basis ? { legalBasis: basis } : {};

    try {
      let state: ResultsState;
      if (isTel) {
        const results = await phone.mutateAsync({
          dialCode: country.dialCode,
          digits: userInput,
          caseReference: reference,
          legalBasis: caseReference.legalBasisQuery,
        });
        state = {
          type: 'tel',
          userInput,
          dialCode: country.dialCode,
          results,
          caseReference: reference,
          ...carried,
        };
      } else if (isName) {
        const results = await username.mutateAsync({
          username: userInput,
          caseReference: reference,
          legalBasis: caseReference.legalBasisQuery,
        });
        state = { type: 'username', userInput, results, caseReference: reference, ...carried };
      } else {
        const results = await email.mutateAsync({
          email: userInput,
          caseReference: reference,
          legalBasis: caseReference.legalBasisQuery,
        });
        state = { type: 'email', userInput, results, caseReference: reference, ...carried };
      }
      paidAnswer.paid(state.results);
      await navigate(paths.results, { state });
    } catch (error) {
      paidAnswer.failed(error, { failed: messages.search.somethingWrong, caseReference });
    }
  };

  const inputId = `${id}-query`;
  const fieldErrorId = `${id}-query-error`;
  const hintId = `${id}-query-hint`;
  const termsId = `${id}-terms`;
  const unavailableId = `${id}-unavailable`;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col items-center px-4 py-10 sm:px-6 lg:py-20">
      <div className="text-center">
        <p className="eyebrow">{messages.taglines.footprint}</p>
        <h1 className="mt-3 text-4xl font-bold tracking-tight text-text sm:text-5xl">{messages.brand}</h1>
        <p className="mx-auto mt-4 max-w-xl text-base text-balance text-muted sm:text-lg">
          {messages.taglines.proactive}
        </p>
      </div>

      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        aria-busy={searching}
        aria-label={field.form}
        className="card mt-10 w-full p-5 sm:p-8"
      >
        <fieldset>
          <legend className="label">{messages.search.typeLegend}</legend>
          <div className="search-toggle grid-cols-3">
            {typeOptions.map((option) => (
              <label key={option.type} className="search-toggle-option">
                <input
                  type="radio"
                  name={`${id}-type`}
                  value={option.type}
                  checked={searchType === option.type}
                  onChange={() => setSearchType(option.type)}
                  disabled={!available(option.type)}
                  aria-describedby={available(option.type) ? undefined : unavailableId}
                  className="peer sr-only"
                />
                <span>{option.label}</span>
              </label>
            ))}
          </div>
          {unavailable.length > 0 && (
            <div id={unavailableId} role="status" className="mt-3 space-y-1">
              {unavailable.map((option) => (
                <p key={option.type} className="unavailable-note">
                  {unavailableText(option.type)}
                </p>
              ))}
            </div>
          )}
        </fieldset>

        <div className="mt-6">
          <label htmlFor={inputId} className="label">
            {field.label}
          </label>
          <div className="flex items-stretch gap-2">
            {isTel && (
              <CountryPicker
                value={country}
                onChange={(next) => {
                  setCountry(next);
                  setFieldError(null);
                }}
                disabled={searching || chosenUnavailable}
                onChosen={() => input.current?.focus()}
              />
            )}
            <input
              ref={input}
              id={inputId}
              type={field.type}
              inputMode={field.inputMode}
              autoComplete="off"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              maxLength={field.maxLength}
              placeholder={field.placeholder}
              value={value}
              onChange={(event) => {
                setValue(isTel ? sanitizePhoneInput(event.target.value) : event.target.value);
                setFieldError(null);
              }}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={
                [fieldError ? fieldErrorId : '', isName ? hintId : ''].filter(Boolean).join(' ') || undefined
              }
              disabled={searching || chosenUnavailable}
              className="input min-h-11 min-w-0 flex-1 text-base tabular-nums sm:text-sm"
            />
          </div>
          {fieldError && (
            <p id={fieldErrorId} className="field-error">
              {fieldError}
            </p>
          )}
          {isName && (
            <p id={hintId} className="mt-1.5 text-xs text-muted">
              {messages.search.usernameHint}
            </p>
          )}
        </div>

        <div className="mt-5 flex items-start gap-3">
          <input
            id={termsId}
            type="checkbox"
            checked={termsAccepted}
            onChange={(event) => setTermsAccepted(event.target.checked)}
            className="mt-0.5 size-4 shrink-0 accent-accent"
          />
          <label htmlFor={termsId} className="text-sm leading-relaxed text-muted">
            {messages.search.termsBefore}{' '}
            <Link
              to={paths.dashboard}
              className="font-medium text-accent underline underline-offset-4 hover:decoration-2"
            >
              {messages.search.termsLink}
            </Link>
            {messages.search.termsAfter}
          </label>
        </div>

        <CaseFiling className="mt-5" disabled={searching} {...caseReference.field} />

        <button
          type="submit"
          className="btn-primary mt-4 w-full py-3 text-base"
          disabled={searching || chosenUnavailable}
          aria-describedby={chosenUnavailable ? unavailableId : undefined}
        >
          <Icon className="size-5" strokeWidth={2}>
            <circle cx="11" cy="11" r="6.5" />
            <path d="m20 20-4.2-4.2" />
          </Icon>
          {messages.search.submit}
        </button>
      </form>

      {searching && (
        <Overlay
          message={username.isPending ? messages.search.searchingUsername : messages.search.searching}
        />
      )}
    </div>
  );
}
