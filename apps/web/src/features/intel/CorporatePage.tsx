import { IntelSearchPage } from './IntelSearchPage.tsx';

export default function CorporatePage() {
  return <IntelSearchPage area="corporate" />;
}
