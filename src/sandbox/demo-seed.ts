import { SANDBOX_API_USER } from './actor.js';
import type { NewAttachment } from './attachments.js';
import { createRandom, hashSeed, pick, randomInt, type Random } from './prng.js';
import type { SandboxStore } from './sandbox-store.js';
import type { BaseDefinition, SandboxBase, TableDefinition } from './sandbox.types.js';

export const DEMO_BASE_NAMES = {
  catalog: 'Acme Product Catalog',
  marketing: 'Marketing Assets',
  changeLog: 'Change Log',
  tracker: 'Project Tracker',
} as const;

/** Records per table at scale 1; a table holds Math.round(count × scale) records. */
export const DEMO_TABLES = {
  [DEMO_BASE_NAMES.catalog]: { Products: 250, Suppliers: 40, Orders: 120 },
  [DEMO_BASE_NAMES.marketing]: { Campaigns: 30, Assets: 150, Notes: 10 },
  [DEMO_BASE_NAMES.changeLog]: {},
  [DEMO_BASE_NAMES.tracker]: { Tasks: 25 },
} as const;

export function demoRecordCount(perScaleOne: number, scale: number): number {
  return Math.max(0, Math.round(perScaleOne * scale));
}

const CREATED_TIME_START = new Date('2024-01-01T09:00:00.000Z');
const NO_SIZE_EVERY = 50;
type Range = readonly [number, number];
const SMALL_IMAGE: Range = [40_000, 900_000];
const LARGE_IMAGE: Range = [2_000_000, 12_000_000];
const SPEC_SHEET: Range = [150_000, 12_000_000];
const INVOICE: Range = [30_000, 400_000];
const VIDEO: Range = [5_000_000, 80_000_000];
const ARCHIVE: Range = [1_000_000, 40_000_000];

const ADJECTIVES = ['Compact', 'Deluxe', 'Eco', 'Heavy-Duty', 'Smart', 'Classic', 'Portable', 'Modular', 'Premium', 'Rugged'];
const NOUNS = ['Widget', 'Gadget', 'Sprocket', 'Bracket', 'Lamp', 'Valve', 'Sensor', 'Hinge', 'Pump', 'Fan', 'Gear', 'Clamp'];
const COMPANIES = ['Nordwind', 'Bluepeak', 'Ironleaf', 'Sunfield', 'Redcliff', 'Silverline', 'Oakmont', 'Brightwater'];
const INDUSTRIES = ['Metals', 'Plastics', 'Electronics', 'Logistics', 'Textiles', 'Components'];
const COUNTRIES = ['Germany', 'France', 'USA', 'Japan', 'Brazil', 'India', 'Canada', 'Italy'];
const SEASONS = ['Spring', 'Summer', 'Autumn', 'Winter'];
const THEMES = ['Launch', 'Sale', 'Showcase', 'Newsletter', 'Webinar'];
const SENTENCES = [
  'Follow up with the supplier about lead times.',
  'Photos need retouching before the next launch.',
  'Budget approved for the autumn campaign.',
  'Check the spec sheets against the new regulations.',
  "Archive last year's banners once the new ones ship.",
];

/** Hands out demo files; every 50th has no size, as the real API does not guarantee one. */
class DemoFiles {
  private count = 0;

  constructor(private readonly random: Random) {}

  file(path: string, range: Range): NewAttachment {
    this.count++;
    const filename = path.slice(path.lastIndexOf('/') + 1);
    const size = this.count % NO_SIZE_EVERY === 0 ? null : randomInt(this.random, range[0], range[1]);
    return { url: `https://assets.acme.invalid/${path}`, filename, size };
  }

  image(path: string): NewAttachment {
    return this.file(path, this.random() < 0.2 ? LARGE_IMAGE : SMALL_IMAGE);
  }
}

/** Seeds the demo bases; the same seed and scale always produce the same ids and content. */
export function seedDemo(store: SandboxStore, options: { seed: number; scale: number }): SandboxBase[] {
  const random = createRandom(hashSeed(options.seed, 'demo'));
  const files = new DemoFiles(random);
  const count = (perScaleOne: number) => demoRecordCount(perScaleOne, options.scale);
  const definitions: BaseDefinition[] = [
    {
      name: DEMO_BASE_NAMES.catalog,
      tables: [products(random, files, count(250)), suppliers(random, count(40)), orders(random, files, count(120))],
    },
    {
      name: DEMO_BASE_NAMES.marketing,
      tables: [campaigns(random, files, count(30)), assets(random, files, count(150)), notes(random, count(10))],
    },
    { name: DEMO_BASE_NAMES.changeLog, tables: [] },
    // Last, so the ids and content of the bases above stay what they were before it existed.
    { name: DEMO_BASE_NAMES.tracker, tables: [tasks(createRandom(hashSeed(options.seed, 'demo-tracker')), count(25))] },
  ];
  return definitions.map((definition) => store.addBase(definition, { createdTimeStart: CREATED_TIME_START }));
}

function products(random: Random, files: DemoFiles, count: number): TableDefinition {
  const records = times(count, (index) => {
    const sku = `P${pad(index + 1, 4)}`;
    const record: Record<string, unknown> = { Name: `${pick(random, ADJECTIVES)} ${pick(random, NOUNS)} ${sku}` };
    if (random() >= 0.12) record.Price = Math.round((1 + random() * 499) * 100) / 100;
    record.Photos = times(randomInt(random, 0, 3), (photo) => files.image(`products/${sku}/${sku}-photo-${photo + 1}.jpg`));
    if (random() < 0.5) record['Spec Sheets'] = [files.file(`products/${sku}/${sku}-spec-sheet.pdf`, SPEC_SHEET)];
    if (random() < 0.6) record['In Stock'] = true;
    return record;
  });
  return {
    name: 'Products',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Price', type: 'number', options: { precision: 2 } },
      { name: 'Photos', type: 'multipleAttachments' },
      { name: 'Spec Sheets', type: 'multipleAttachments' },
      { name: 'In Stock', type: 'checkbox', options: { color: 'greenBright', icon: 'check' } },
    ],
    records,
  };
}

function suppliers(random: Random, count: number): TableDefinition {
  const records = times(count, (index) => {
    const record: Record<string, unknown> = {
      Name: `${pick(random, COMPANIES)} ${pick(random, INDUSTRIES)} ${pad(index + 1, 3)}`,
    };
    if (random() < 0.9) record.Email = `orders@supplier${index + 1}.example`;
    if (random() < 0.95) record.Country = pick(random, COUNTRIES);
    return record;
  });
  return {
    name: 'Suppliers',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Email', type: 'email' },
      { name: 'Country', type: 'singleSelect', options: { choices: COUNTRIES.map((name) => ({ name })) } },
    ],
    records,
  };
}

function orders(random: Random, files: DemoFiles, count: number): TableDefinition {
  const records = times(count, (index) => {
    const order = `ORD-${pad(index + 1, 5)}`;
    const record: Record<string, unknown> = { Order: order };
    if (random() < 0.9) record.Quantity = randomInt(random, 1, 50);
    if (random() < 0.7) record.Invoice = [files.file(`orders/${order}/invoice-${order}.pdf`, INVOICE)];
    return record;
  });
  return {
    name: 'Orders',
    fields: [
      { name: 'Order', type: 'singleLineText' },
      { name: 'Quantity', type: 'number', options: { precision: 0 } },
      { name: 'Invoice', type: 'multipleAttachments' },
    ],
    records,
  };
}

function campaigns(random: Random, files: DemoFiles, count: number): TableDefinition {
  const records = times(count, (index) => {
    const number = index + 1;
    const record: Record<string, unknown> = { Name: `${pick(random, SEASONS)} ${pick(random, THEMES)} ${number}` };
    if (random() < 0.85) record.Starts = new Date(Date.UTC(2024, 0, 1 + randomInt(random, 0, 364))).toISOString().slice(0, 10);
    record.Banner = times(randomInt(random, 0, 2), (banner) =>
      files.image(`campaigns/${number}/campaign-${number}-banner-${banner + 1}.png`),
    );
    return record;
  });
  return {
    name: 'Campaigns',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Starts', type: 'date', options: { dateFormat: { name: 'iso' } } },
      { name: 'Banner', type: 'multipleAttachments' },
    ],
    records,
  };
}

function assets(random: Random, files: DemoFiles, count: number): TableDefinition {
  const kinds: Array<(path: string) => NewAttachment> = [
    (path) => files.image(`${path}.png`),
    (path) => files.image(`${path}.jpg`),
    (path) => files.file(`${path}.mp4`, VIDEO),
    (path) => files.file(`${path}.pdf`, SPEC_SHEET),
    (path) => files.file(`${path}.zip`, ARCHIVE),
  ];
  const records = times(count, (index) => {
    const number = index + 1;
    const record: Record<string, unknown> = { Name: `Asset ${pad(number, 4)}` };
    if (random() < 0.9) record.File = [pick(random, kinds)(`assets/${number}/asset-${pad(number, 4)}`)];
    return record;
  });
  return {
    name: 'Assets',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'File', type: 'multipleAttachments' },
    ],
    records,
  };
}

function notes(random: Random, count: number): TableDefinition {
  const records = times(count, (index) => {
    const record: Record<string, unknown> = { Title: `Note ${index + 1}` };
    if (random() < 0.8) record.Body = times(randomInt(random, 1, 3), () => pick(random, SENTENCES)).join('\n');
    return record;
  });
  return {
    name: 'Notes',
    fields: [
      { name: 'Title', type: 'singleLineText' },
      { name: 'Body', type: 'multilineText' },
    ],
    records,
  };
}

const TASK_VERBS = ['Draft', 'Review', 'Ship', 'Test', 'Plan', 'Fix', 'Document', 'Measure'];
const TASK_OBJECTS = ['pricing page', 'supplier contract', 'spring launch', 'onboarding mail', 'invoice export', 'photo shoot'];

/**
 * A table with every computed type that needs no linked table (the API can neither create such fields nor write
 * their cells). Their values are seeded as the product would have computed them; the sandbox has no formula engine,
 * so they do not change afterwards.
 */
function tasks(random: Random, count: number): TableDefinition {
  const demoUser = { ...SANDBOX_API_USER };
  const records = times(count, (index) => {
    const created = new Date(CREATED_TIME_START.getTime() + index * 1000).toISOString();
    const name = `${pick(random, TASK_VERBS)} ${pick(random, TASK_OBJECTS)}`;
    const record: Record<string, unknown> = { Name: name, 'Task ID': index + 1, Created: created, 'Last Modified': created };
    record['Created By'] = demoUser;
    record['Last Modified By'] = demoUser;
    record.Open = { label: 'Open', url: `https://tracker.example/tasks/${index + 1}` };
    const estimate = random() < 0.8 ? randomInt(random, 1, 16) : undefined;
    if (estimate !== undefined) record.Estimate = estimate;
    if (random() < 0.4) record.Done = true;
    record.Summary = estimate === undefined ? `#${index + 1} ${name}` : `#${index + 1} ${name} (${estimate} h)`;
    return record;
  });
  const dateTime = { type: 'dateTime', options: { timeZone: 'utc', dateFormat: { name: 'iso' }, timeFormat: { name: '24hour' } } };
  return {
    name: 'Tasks',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Estimate', type: 'number', options: { precision: 0 } },
      { name: 'Done', type: 'checkbox', options: { color: 'greenBright', icon: 'check' } },
      { name: 'Task ID', type: 'autoNumber' },
      {
        name: 'Summary',
        type: 'formula',
        options: {
          formula: '"#" & {Task ID} & " " & {Name} & IF({Estimate}, " (" & {Estimate} & " h)")',
          isValid: true,
          result: { type: 'singleLineText' },
        },
      },
      { name: 'Created', type: 'createdTime', options: { result: dateTime } },
      { name: 'Last Modified', type: 'lastModifiedTime', options: { isValid: true, referencedFieldIds: [], result: dateTime } },
      { name: 'Created By', type: 'createdBy' },
      { name: 'Last Modified By', type: 'lastModifiedBy', options: { referencedFieldIds: [] } },
      { name: 'Open', type: 'button' },
    ],
    records,
  };
}

function times<T>(count: number, make: (index: number) => T): T[] {
  return Array.from({ length: count }, (_, index) => make(index));
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
