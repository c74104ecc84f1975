/**
 * The CASE/UCO 1.4 validator of the case export's tests: `rdf-validate-shacl` with the shapes the UCO
 * and CASE projects ship (data/standards/case-uco/, copied unchanged) and Footprint's own
 * (src/modules/cases/exports/case-uco-shapes.ttl). As the CASE project runs pyshacl (its
 * tests/examples/Makefile: `--ont-graph` = the ontology, `--inference none`), the ontology is mixed
 * into the data graph, so that `sh:class` and `sh:targetClass` see the class hierarchy.
 *
 * Loaded: every UCO 1.4 module (core, action, identity, observable, types, tool, …) and CASE's
 * investigation and vocabulary; not UCO's owl.ttl and co.ttl, whose shapes judge the ontologies'
 * own OWL and the collections ontology, not instance data. rdf-validate-shacl does not run
 * SHACL-SPARQL constraints, so UCO's one that judges data ("UcoThings are required to not be blank
 * nodes", core:UcoThing) is checked here in JavaScript instead (`blankUcoThings`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonld from 'jsonld';
import { DataFactory, Parser, type Quad, Store } from 'n3';
import SHACLValidator from 'rdf-validate-shacl';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const STANDARDS = path.join(root, 'data/standards/case-uco');
export const FOOTPRINT_SHAPES = path.join(root, 'apps/server/src/modules/cases/exports/case-uco-shapes.ttl');

const ucoModules = path.join(STANDARDS, 'uco-1.4.0/ontology/uco');
/** The ontology files, each holding its classes and their shapes (UCO and CASE declare both at once). */
export const ONTOLOGY_FILES = [
  ...readdirSync(ucoModules)
    .filter((module) => module !== 'master')
    .map((module) => path.join(ucoModules, module, `${module}.ttl`)),
  path.join(STANDARDS, 'case-1.4.0/ontology/investigation/investigation.ttl'),
  path.join(STANDARDS, 'case-1.4.0/ontology/vocabulary/vocabulary.ttl'),
];

const parseTurtle = (file: string): Quad[] =>
  new Parser({ baseIRI: 'urn:x-footprint:' }).parse(readFileSync(file, 'utf8'));

const SH = 'http://www.w3.org/ns/shacl#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';

let ontology: Quad[] | undefined;
const ontologyQuads = () => {
  ontology ??= ONTOLOGY_FILES.flatMap(parseTurtle);
  return ontology;
};
/** What the data graph needs of the ontology: its class hierarchy (rdfs:subClassOf), for sh:class and sh:targetClass. */
let hierarchy: Quad[] | undefined;
const hierarchyQuads = () => {
  hierarchy ??= ontologyQuads().filter(
    (q) => q.predicate.value === `${RDFS}subClassOf` && q.object.termType === 'NamedNode',
  );
  return hierarchy;
};

/** JSON-LD (an object or its text) as quads; its context is inline, so nothing is fetched. */
export async function jsonLdQuads(document: unknown): Promise<Quad[]> {
  const doc = typeof document === 'string' ? JSON.parse(document) : document;
  const nquads = (await jsonld.toRDF(
    doc as jsonld.JsonLdDocument,
    {
      format: 'application/n-quads',
      // Terms the context does not define would be dropped silently: an error instead.
      safe: true,
    } as jsonld.Options.ToRdf,
  )) as unknown as string;
  return new Parser({ format: 'N-Quads' }).parse(nquads);
}

export interface ShaclFinding {
  focus: string;
  path: string | null;
  message: string;
  severity: string;
  component: string;
}

export interface ShaclOutcome {
  conforms: boolean;
  /** Violations only (UCO's Warning and Info results do not break conformance in pyshacl either). */
  violations: ShaclFinding[];
  all: ShaclFinding[];
}

/** Builds a validator over the shipped shapes, with or without Footprint's own. */
export function caseUcoValidator(options: { footprint: boolean }) {
  // rdf-validate-shacl stops at a SHACL-SPARQL constraint it cannot run: those are left out (above).
  const shapes = new Store(
    [...ontologyQuads(), ...(options.footprint ? parseTurtle(FOOTPRINT_SHAPES) : [])].filter(
      (q) => q.predicate.value !== `${SH}sparql`,
    ),
  );
  // Every ontology the shapes import (owl:imports) is loaded already: nothing more to fetch.
  const validator = new SHACLValidator(shapes, { importGraph: () => new Store() });
  return async (data: Quad[]): Promise<ShaclOutcome> => {
    const graph = new Store([
      ...hierarchyQuads(),
      ...data.map((q) => DataFactory.quad(q.subject, q.predicate, q.object)),
    ]);
    const report = await validator.validate(graph);
    const all = report.results.map((result) => ({
      focus: result.focusNode?.value ?? '',
      path: result.path?.value ?? null,
      message: result.message.map((m) => m.value).join(' '),
      severity: result.severity?.value.replace(SH, '') ?? '',
      component: result.sourceConstraintComponent?.value.replace(SH, '') ?? '',
    }));
    const violations = all.filter((finding) => finding.severity === 'Violation');
    return { conforms: violations.length === 0, violations, all };
  };
}

/** The property shapes that require `path` (sh:minCount of 1 or more), in the shipped shapes or with Footprint's. */
export function shapesRequiring(path: string, options: { footprint: boolean }): string[] {
  const store = new Store([...ontologyQuads(), ...(options.footprint ? parseTurtle(FOOTPRINT_SHAPES) : [])]);
  return store
    .getSubjects(`${SH}path`, DataFactory.namedNode(path), null)
    .filter((shape) =>
      store.getObjects(shape, `${SH}minCount`, null).some((count) => Number(count.value) >= 1),
    )
    .map((shape) => shape.value);
}

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const UCO = 'https://ontology.unifiedcyberontology.org/';
const CASE = 'https://ontology.caseontology.org/';

/** Blank nodes typed with a UCO or CASE class (UCO's SPARQL rule: every UcoThing has an IRI). */
export function blankUcoThings(data: Quad[]): string[] {
  return data
    .filter(
      (q) =>
        q.predicate.value === RDF_TYPE &&
        q.subject.termType === 'BlankNode' &&
        (q.object.value.startsWith(UCO) || q.object.value.startsWith(CASE)),
    )
    .map((q) => `${q.subject.value} a ${q.object.value}`);
}
