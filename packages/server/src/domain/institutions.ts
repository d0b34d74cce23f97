// The catalogue of the institutions the service connects to: what `GET /institutions` lists and
// every account names. Ids are lower snake_case; products say what each supports, which decides
// the links an account gets.

export type Product = 'verify.instant' | 'verify.microdeposit' | 'balance' | 'transactions' | 'payments';

export interface Institution {
  id: string;
  name: string;
  products: Product[];
  /** ACH and wire routing numbers handed out to the sandbox accounts. */
  routing: { ach: string; wire: string };
  /** Shown on card transactions paying this institution's credit card. */
  shortName: string;
}

const ALL: Product[] = ['verify.instant', 'balance', 'transactions', 'payments'];
const NO_PAYMENTS: Product[] = ['verify.instant', 'balance', 'transactions'];
const MICRODEPOSIT: Product[] = ['verify.microdeposit', 'balance', 'transactions'];

export const institutions: Institution[] = [
  { id: 'chase', name: 'Chase', products: ALL, routing: { ach: '021000021', wire: '021000021' }, shortName: 'CHASE' },
  {
    id: 'bank_of_america',
    name: 'Bank of America',
    products: ALL,
    routing: { ach: '121000358', wire: '026009593' },
    shortName: 'BANK OF AMERICA',
  },
  {
    id: 'wells_fargo',
    name: 'Wells Fargo',
    products: ALL,
    routing: { ach: '121042882', wire: '121000248' },
    shortName: 'WELLS FARGO',
  },
  { id: 'citibank', name: 'Citibank', products: ALL, routing: { ach: '021000089', wire: '021000089' }, shortName: 'CITI' },
  {
    id: 'capital_one',
    name: 'Capital One',
    products: ALL,
    routing: { ach: '056073612', wire: '051405515' },
    shortName: 'CAPITAL ONE',
  },
  { id: 'us_bank', name: 'U.S. Bank', products: ALL, routing: { ach: '091000022', wire: '091000022' }, shortName: 'US BANK' },
  { id: 'pnc', name: 'PNC Bank', products: ALL, routing: { ach: '043000096', wire: '043000096' }, shortName: 'PNC' },
  {
    id: 'td_bank',
    name: 'TD Bank',
    products: ALL,
    routing: { ach: '031101266', wire: '026013673' },
    shortName: 'TD BANK',
  },
  {
    id: 'navy_federal',
    name: 'Navy Federal Credit Union',
    products: ALL,
    routing: { ach: '256074974', wire: '256074974' },
    shortName: 'NAVY FEDERAL',
  },
  { id: 'ally', name: 'Ally Bank', products: NO_PAYMENTS, routing: { ach: '124003116', wire: '124003116' }, shortName: 'ALLY' },
  {
    id: 'charles_schwab',
    name: 'Charles Schwab',
    products: NO_PAYMENTS,
    routing: { ach: '121202211', wire: '121202211' },
    shortName: 'SCHWAB',
  },
  {
    id: 'bluebird_credit_union',
    name: 'Bluebird Credit Union',
    products: MICRODEPOSIT,
    routing: { ach: '211370150', wire: '211370150' },
    shortName: 'BLUEBIRD CU',
  },
  {
    id: 'harbor_community_bank',
    name: 'Harbor Community Bank',
    products: [...MICRODEPOSIT, 'payments'],
    routing: { ach: '011302603', wire: '011302603' },
    shortName: 'HARBOR CMTY',
  },
];

export const DEFAULT_INSTITUTION = 'chase';
export const DEFAULT_MICRODEPOSIT_INSTITUTION = 'bluebird_credit_union';

export function findInstitution(id: string): Institution | undefined {
  return institutions.find((institution) => institution.id === id);
}

export function institution(id: string): Institution {
  const found = findInstitution(id);
  if (!found) throw new Error(`unknown institution ${id}`);
  return found;
}
