// Counterparties of the simulated card spending: raw statement text, the cleaned name and
// the category enrichment assigns.

export interface Merchant {
  /** Statement text; `#` is replaced by a store number. */
  description: string;
  name: string;
  category: string;
  /** Amount range in cents. */
  min: number;
  max: number;
  /** Dining adds a tip when the card payment posts. */
  tips?: boolean;
}

export const merchants: Merchant[] = [
  { description: 'WHOLEFDS MKT #', name: 'Whole Foods Market', category: 'groceries', min: 1800, max: 16000 },
  { description: "TRADER JOE'S #", name: "Trader Joe's", category: 'groceries', min: 1500, max: 9000 },
  { description: 'SAFEWAY STORE #', name: 'Safeway', category: 'groceries', min: 1200, max: 12000 },
  { description: 'KROGER #', name: 'Kroger', category: 'groceries', min: 1500, max: 13000 },
  { description: 'STARBUCKS STORE #', name: 'Starbucks', category: 'dining', min: 350, max: 1400, tips: true },
  { description: 'CHIPOTLE #', name: 'Chipotle', category: 'dining', min: 900, max: 2800, tips: true },
  { description: 'SQ *BLUE BOTTLE COFFEE', name: 'Blue Bottle Coffee', category: 'dining', min: 450, max: 1600, tips: true },
  { description: 'TST* SWEETGREEN #', name: 'Sweetgreen', category: 'dining', min: 1100, max: 2600, tips: true },
  { description: 'DOORDASH*DASHPASS', name: 'DoorDash', category: 'dining', min: 1800, max: 6500 },
  { description: 'THE ROCKY TAVERN', name: 'The Rocky Tavern', category: 'bar', min: 1600, max: 7500, tips: true },
  { description: 'SHELL OIL #', name: 'Shell', category: 'fuel', min: 2500, max: 7800 },
  { description: 'CHEVRON #', name: 'Chevron', category: 'fuel', min: 2800, max: 8200 },
  { description: 'UBER *TRIP HELP.UBER.COM', name: 'Uber', category: 'transport', min: 900, max: 4800 },
  { description: 'LYFT *RIDE', name: 'Lyft', category: 'transport', min: 800, max: 4200 },
  { description: 'MTA*NYCT PAYGO', name: 'MTA', category: 'transportation', min: 290, max: 290 },
  { description: 'AMAZON.COM*#', name: 'Amazon', category: 'shopping', min: 900, max: 18000 },
  { description: 'TARGET #', name: 'Target', category: 'shopping', min: 1200, max: 14000 },
  { description: 'UNIQLO USA #', name: 'Uniqlo', category: 'clothing', min: 2000, max: 12000 },
  { description: 'BEST BUY #', name: 'Best Buy', category: 'electronics', min: 1500, max: 45000 },
  { description: 'CVS/PHARMACY #', name: 'CVS Pharmacy', category: 'health', min: 600, max: 6000 },
  { description: 'AMC #', name: 'AMC Theatres', category: 'entertainment', min: 1400, max: 4500 },
  { description: 'HOME DEPOT #', name: 'The Home Depot', category: 'home', min: 1500, max: 25000 },
  { description: 'EQUINOX #', name: 'Equinox', category: 'sport', min: 2500, max: 4000 },
  { description: 'STAPLES #', name: 'Staples', category: 'office', min: 800, max: 9000 },
];

/** Monthly card subscriptions: day of month, statement text, name, category, cents. */
export const subscriptions = [
  { day: 3, description: 'NETFLIX.COM', name: 'Netflix', category: 'entertainment', cents: 1549 },
  { day: 9, description: 'SPOTIFY USA', name: 'Spotify', category: 'entertainment', cents: 1199 },
  { day: 14, description: 'GITHUB INC', name: 'GitHub', category: 'software', cents: 400 },
  { day: 22, description: 'APPLE.COM/BILL', name: 'Apple', category: 'software', cents: 299 },
] as const;

/** Monthly bills paid by direct debit from checking. */
export const bills = [
  { day: 5, description: 'CON ED OF NY DES:INTELL CK', name: 'Con Edison', category: 'utilities', min: 6000, max: 16000 },
  { day: 8, description: 'VERIZON WIRELESS PAYMENTS', name: 'Verizon', category: 'phone', min: 7500, max: 9500 },
  { day: 12, description: 'COMCAST XFINITY', name: 'Xfinity', category: 'utilities', min: 7000, max: 8999 },
  { day: 17, description: 'GEICO *AUTO', name: 'GEICO', category: 'insurance', min: 11000, max: 14500 },
] as const;

export const employers = [
  { statement: 'ACME CORP', name: 'Acme Corp' },
  { statement: 'GLOBEX INC', name: 'Globex' },
  { statement: 'INITECH LLC', name: 'Initech' },
  { statement: 'UMBRELLA CO', name: 'Umbrella Corporation' },
  { statement: 'HOOLI INC', name: 'Hooli' },
  { statement: 'STARK INDUSTRIES', name: 'Stark Industries' },
] as const;

export const people = ['Maria Garcia', 'James Smith', 'Aisha Khan', 'Wei Chen', 'Olivia Brown', 'Lucas Martin', 'Priya Patel', 'Noah Johnson'];
