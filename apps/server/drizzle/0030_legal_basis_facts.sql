-- A case's legal basis gets the facts its kind asks for (domain cases/legal-basis.ts): an FIR's police
-- station, number, year and sections; a notice's provision, authority, reference and date; an NCRP
-- acknowledgement number; a preliminary enquiry's reference and officer. Cases from before keep their
-- kind, number and purpose, with no facts.
ALTER TABLE "cases" DROP CONSTRAINT "cases_legal_basis_valid";--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "legal_basis_fields" jsonb;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_legal_basis_valid" CHECK (("cases"."legal_basis_kind" is null and "cases"."legal_basis_number" is null and "cases"."legal_basis_purpose" is null)
        or ("cases"."legal_basis_kind" in ('fir', 'notice', 'ncrp_complaint', 'preliminary_enquiry', 'editorial_assignment', 'warrant', 'complaint', 'court_order')
          and "cases"."legal_basis_number" is not null and "cases"."legal_basis_purpose" is not null));