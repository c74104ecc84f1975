import { messages } from '@footprint/domain';

const { refund } = messages.public;
const { email } = messages.public.contact;

/** '/refund-policy' (spec §2.1, §9): no refunds, non-transferable accounts, and where to get help. */
export default function RefundPage() {
  return (
    <>
      <title>{`${refund.title} — ${messages.brand}`}</title>
      <article className="page-shell" aria-labelledby="refund-title">
        <p className="eyebrow">Legal</p>
        <h1 id="refund-title" className="page-title">
          {refund.title}
        </h1>
        <p className="page-lead">
          {messages.brand} provides immediate access to digital intelligence tools. Please read this policy
          before you buy an account licence or credits.
        </p>

        <div className="prose-policy mt-10">
          <section aria-labelledby="refund-none">
            <h2 id="refund-none">{refund.noRefunds}</h2>
            <p>
              All sales are final. We do not offer returns, cancellations or refunds under any circumstances,
              including for unused credits or unused time on a licence.
            </p>
            <p>
              Once access to the portal, software or tools has been granted, the service is considered
              delivered in full. Because access to digital services and data cannot be returned, delivery is
              non-reversible.
            </p>
          </section>

          <section aria-labelledby="refund-transfer">
            <h2 id="refund-transfer">{refund.nonTransferable}</h2>
            <p>
              Accounts are licensed to specific authorised personnel and are non-transferable. An account, its
              credits and its access may not be shared with, sold to or assigned to another person or
              organisation.
            </p>
          </section>

          <section aria-labelledby="refund-help">
            <h2 id="refund-help">{refund.needHelp}</h2>
            <p>
              If you have a concern about provisioning or access to your account, contact our support team at{' '}
              <a href={`mailto:${email}`}>{email}</a> and we will help you resolve it.
            </p>
          </section>
        </div>
      </article>
    </>
  );
}
