import UnitsPage from './UnitsPage.tsx';

/**
 * /units: the units screen of /admin/units outside the admin area, for whoever supervises or administers
 * a unit (the UnitsOnly guard) and for admins. The same screen: the server's answer decides what it
 * offers (the tree's editing with `edits_tree`, members' changes with `manages`, allowances with
 * `sets_allowances`, top-ups with `tops_up`).
 */
export default function MyUnitsPage() {
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col px-4 py-6 sm:px-6 lg:py-8">
      <UnitsPage />
    </div>
  );
}
