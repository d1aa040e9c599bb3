// A realistic ButterCMS account for the fake server, built from the examples in
// ButterCMS's API documentation and extended so an importer meets every shape it must handle: several page
// types (one reachable only through references), single pages, collections that reference each
// other, components, pickers, repeaters, media (one image under two URLs), and enough items that
// every paginated endpoint needs more than one page.
//
// Content is stored raw: references and media are markers that the server renders per request,
// because how they are delivered depends on `levels` and `alt_media_text`.

import { createHash } from 'node:crypto';
import { encodePng } from './png.js';

export type ItemRef = { $ref: 'item'; collection: string; id: number };
export type PageRef = { $ref: 'page'; slug: string };
export type MediaRef = { $media: string };
export type RawValue = string | number | boolean | null | ItemRef | PageRef | MediaRef | RawValue[] | RawObject;
export interface RawObject {
  [key: string]: RawValue;
}

export interface FakePage {
  slug: string;
  name: string;
  published: string;
  updated: string;
  page_type: string | null;
  fields: RawObject;
  /** Sent only when set, as newer API versions do (the May 2024 recordings have neither). */
  status?: 'published' | 'draft' | 'scheduled';
  scheduled?: string | null;
}

export interface FakeItem {
  id: number;
  fields: RawObject;
}

export interface FakeAuthor {
  first_name: string;
  last_name: string;
  email: string;
  slug: string;
  bio: string;
  title: string;
  linkedin_url: string;
  facebook_url: string;
  instagram_url: string;
  pinterest_url: string;
  twitter_handle: string;
  profile_image: string;
}

export interface FakeTerm {
  name: string;
  slug: string;
}

export interface FakePost {
  status: 'published' | 'draft' | 'scheduled';
  /** When a scheduled post goes live (sent only when set, as newer API versions do). */
  scheduled?: string;
  created: string;
  updated: string;
  published: string;
  title: string;
  slug: string;
  body: string;
  summary: string;
  seo_title: string;
  meta_description: string;
  featured_image: string | null;
  featured_image_alt: string;
  /** Author slug; rendered as the embedded author object. */
  author: string;
  tags: string[];
  categories: string[];
}

export interface FakeMedia {
  id: string;
  alt: string;
  width: number;
  height: number;
  /** PNGs, and PDFs (width and height 0), which land in a field that becomes a media field. */
  contentType: 'image/png' | 'application/pdf';
  bytes: Buffer;
  sha256: string;
}

export interface FakeAccount {
  /** e.g. `http://127.0.0.1:PORT/media`; every media URL is `${mediaBaseUrl}/${id}`. */
  mediaBaseUrl: string;
  media: FakeMedia[];
  /** Every page, single pages (page_type null) included, in creation order. */
  pages: FakePage[];
  collections: Record<string, FakeItem[]>;
  /** Newest first, as `/posts/` serves them. */
  posts: FakePost[];
  authors: FakeAuthor[];
  categories: FakeTerm[];
  tags: FakeTerm[];
  /**
   * The account's locales (Settings → Localization). Absent: one locale, `en`. A read without
   * `locale` gets the first (the default); a locale the account lacks is a 400.
   */
  locales?: FakeLocales;
  /** Drafts, served only to reads with `preview=1` (or `test=1`), as ButterCMS does. */
  drafts?: FakeDrafts;
}

/**
 * What only a preview read sees: entries that exist only as drafts, and the latest drafts of
 * published ones (top-level field values over the published ones).
 */
export interface FakeDrafts {
  pages?: FakePage[];
  pageEdits?: Record<string, RawObject>;
  /** When the page edits were saved: the `updated` that preview reads show for an edited page (else its own). */
  pageEditsUpdated?: string;
  /** The latest drafts of published posts, by slug: what a preview read sees of them. */
  postEdits?: Record<string, Partial<FakePost>>;
  items?: Record<string, FakeItem[]>;
  itemEdits?: Record<number, RawObject>;
  posts?: FakePost[];
}

/** Localized content: the default locale's values are the entries' `fields`; each other locale overrides some. */
export interface FakeLocales {
  /** API slugs; the first is the default. */
  codes: string[];
  /** Per other locale: top-level field values that differ from the default's, pages by slug, items by id. */
  values: Record<string, { pages?: Record<string, RawObject>; items?: Record<number, RawObject> }>;
}

export function isItemRef(value: unknown): value is ItemRef {
  return typeof value === 'object' && value !== null && (value as { $ref?: unknown }).$ref === 'item';
}

export function isPageRef(value: unknown): value is PageRef {
  return typeof value === 'object' && value !== null && (value as { $ref?: unknown }).$ref === 'page';
}

export function isMediaRef(value: unknown): value is MediaRef {
  return typeof value === 'object' && value !== null && typeof (value as { $media?: unknown }).$media === 'string';
}

const item = (collection: string, id: number): ItemRef => ({ $ref: 'item', collection, id });
const page = (slug: string): PageRef => ({ $ref: 'page', slug });
const media = (id: string): MediaRef => ({ $media: id });

// ------------------------------------------------------------------------------------------------
// Media. Ids look like ButterCMS's (20 alphanumerics). The ones from the spec examples keep their
// ids; the rest are derived from a label so the account is identical on every run.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function derivedMediaId(label: string): string {
  const hash = createHash('sha256').update(`fake-butter-media:${label}`).digest();
  let id = '';
  for (let i = 0; i < 20; i += 1) id += BASE62[(hash[i] ?? 0) % 62];
  return id;
}

export const MEDIA_IDS = {
  springHero: 'Qm3xT8aLkR2pVbN9wZyE',
  coyotePhoto: 'H7dPqL0sWc4uYtRz8KbM',
  launchHero: 'Z2vYk9WmP4tRs1LqA0cD',
  builtTough: 'bN5cX7eR1tYu3IoP9aSd',
  summerHero: 'Lr8sV2nQ0wXy6TzK4mPa',
  runnerPhoto: 'pE4gW1kY7uJ3hN6bV0cX',
  anvilFeatured: 'Tq9wE2rY5uI8oP1aS4dF',
  runnerProfile: 'yU7iO9pA2sD4fG6hJ8kL',
  /** The same bytes as `springHero`, uploaded a second time: the importer must deduplicate it. */
  springHeroCopy: 'Dp8QmXtRaLkT2pVbN9wE',
  marvinProfile: derivedMediaId('marvin-profile'),
  officePhoto: derivedMediaId('office-photo'),
  inlineDiagram: derivedMediaId('inline-diagram'),
  product: [0, 1, 2, 3, 4, 5].map((n) => derivedMediaId(`product-${n}`)),
  landingHero: [0, 1, 2, 3].map((n) => derivedMediaId(`landing-hero-${n}`)),
  poster: [0, 1, 2].map((n) => derivedMediaId(`event-poster-${n}`)),
  gallery: [0, 1, 2, 3].map((n) => derivedMediaId(`gallery-${n}`)),
  postImage: [0, 1, 2, 3].map((n) => derivedMediaId(`post-image-${n}`)),
  menuIcon: [0, 1].map((n) => derivedMediaId(`menu-icon-${n}`)),
  /** PDFs: product spec sheets. */
  specSheet: [0, 1].map((n) => derivedMediaId(`spec-sheet-${n}`)),
} as const;

function buildMedia(): FakeMedia[] {
  const ids: Array<[string, string]> = [
    [MEDIA_IDS.springHero, 'Acme Rocket on the launch pad'],
    [MEDIA_IDS.coyotePhoto, 'Wile E. Coyote'],
    [MEDIA_IDS.launchHero, 'Launch day crowd'],
    [MEDIA_IDS.builtTough, 'Steel frame close-up'],
    [MEDIA_IDS.summerHero, 'Beach with rockets'],
    [MEDIA_IDS.runnerPhoto, 'Road Runner'],
    [MEDIA_IDS.anvilFeatured, 'An anvil on a cliff'],
    [MEDIA_IDS.runnerProfile, 'Road Runner profile'],
    [MEDIA_IDS.marvinProfile, 'Marvin the Martian'],
    [MEDIA_IDS.officePhoto, 'Acme head office'],
    [MEDIA_IDS.inlineDiagram, 'Anvil trajectory diagram'],
    ...MEDIA_IDS.product.map((id, n): [string, string] => [id, `Product shot ${n + 1}`]),
    ...MEDIA_IDS.landingHero.map((id, n): [string, string] => [id, `Campaign hero ${n + 1}`]),
    ...MEDIA_IDS.poster.map((id, n): [string, string] => [id, `Event poster ${n + 1}`]),
    ...MEDIA_IDS.gallery.map((id, n): [string, string] => [id, `Gallery image ${n + 1}`]),
    ...MEDIA_IDS.postImage.map((id, n): [string, string] => [id, `Blog illustration ${n + 1}`]),
    ...MEDIA_IDS.menuIcon.map((id, n): [string, string] => [id, `Menu icon ${n + 1}`]),
  ];
  const assets = ids.map(([id, alt], n): FakeMedia => {
    // Distinct sizes, so an importer that records dimensions can be checked per asset.
    const width = 24 + n * 3;
    const height = 16 + n * 2;
    const bytes = encodePng(width, height, (x, y) => [
      Math.floor((x * 255) / width),
      Math.floor((y * 255) / height),
      (n * 37) % 256,
    ]);
    return { id, alt, width, height, contentType: 'image/png', bytes, sha256: sha256(bytes) };
  });
  const original = assets[0]!;
  assets.push({ ...original, id: MEDIA_IDS.springHeroCopy, alt: 'Acme Rocket (re-upload)' });
  MEDIA_IDS.specSheet.forEach((id, n) => {
    const bytes = Buffer.from(`%PDF-1.4\n% Acme spec sheet ${n + 1}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
    assets.push({ id, alt: `Spec sheet ${n + 1}`, width: 0, height: 0, contentType: 'application/pdf', bytes, sha256: sha256(bytes) });
  });
  return assets;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

// ------------------------------------------------------------------------------------------------
// Collections.

const PEOPLE_NAMES = [
  'Wile E. Coyote',
  'Road Runner',
  'Marvin Martian',
  'Bugs Bunny',
  'Daffy Duck',
  'Elmer Fudd',
  'Porky Pig',
  'Tweety Bird',
  'Sylvester Cat',
  'Foghorn Leghorn',
  'Pepe Le Pew',
  'Granny Webb',
];
const ROLES = ['Engineer', 'Tester', 'Designer', 'Product manager', 'Support'];
export const PEOPLE_FIRST_ID = 812001;
export const PRODUCTS_FIRST_ID = 812040;
export const MENU_FIRST_ID = 813001;
const PRODUCT_COUNT = 130;

function buildPeople(): FakeItem[] {
  return PEOPLE_NAMES.map((name, n): FakeItem => {
    const id = PEOPLE_FIRST_ID + n;
    const photo =
      n === 0 ? media(MEDIA_IDS.coyotePhoto) : n === 1 ? media(MEDIA_IDS.runnerPhoto) : n % 4 === 3 ? '' : media(MEDIA_IDS.gallery[n % 4]!);
    return {
      id,
      fields: {
        name,
        role: ROLES[n % ROLES.length]!,
        photo,
        joined:
          n === 0
            ? '2019-03-01T00:00:00'
            : n === 1
              ? '2020-07-20T00:00:00'
              : `${2019 + (n % 5)}-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 27) + 1).padStart(2, '0')}T00:00:00`,
        active: n === 1 ? false : n % 3 !== 2,
        years: n === 0 ? 5 : n === 1 ? 4 : (n % 9) + 1,
        bio: n % 2 === 0 ? `<p>${name} has been at Acme since the <em>early days</em>.</p>` : '',
        // One-to-one self reference; unset references are null.
        mentor: n >= 2 && n % 2 === 0 ? item('people', PEOPLE_FIRST_ID + (n % 2)) : null,
      },
    };
  });
}

const PRODUCT_ADJECTIVES = ['Rocket', 'Giant', 'Jet', 'Earthquake', 'Instant', 'Super', 'Triple', 'Invisible', 'Portable', 'Dehydrated'];
const PRODUCT_NOUNS = ['Skates', 'Magnet', 'Pack', 'Pills', 'Hole', 'Glue', 'Spring', 'Paint', 'Catapult', 'Boulders', 'Anvil', 'Kite', 'Sling'];

function buildProducts(): FakeItem[] {
  const products: FakeItem[] = [];
  for (let n = 0; n < PRODUCT_COUNT; n += 1) {
    const id = PRODUCTS_FIRST_ID + n;
    let name = `${PRODUCT_ADJECTIVES[n % PRODUCT_ADJECTIVES.length]!} ${PRODUCT_NOUNS[n % PRODUCT_NOUNS.length]!}`;
    let sku = `${name
      .split(' ')
      .map((w) => w[0])
      .join('')}-${n + 1}`;
    // The two products named in the documentation's collection sample.
    if (id === 812044) [name, sku] = ['Rocket Skates', 'RS-1'];
    if (id === 812045) [name, sku] = ['Giant Magnet', 'GM-9'];
    products.push({
      id,
      fields: {
        name,
        sku,
        price: n % 3 === 0 ? 100 + n : Number((n * 1.5 + 9.99).toFixed(2)),
        in_stock: n % 4 !== 0,
        description: `${name}, straight from the Acme catalogue.\nShips in ${1 + (n % 5)} business days.`,
        image: media(MEDIA_IDS.product[n % MEDIA_IDS.product.length]!),
        // A PDF, a drawing (an image) or nothing: a field of files that are not all images.
        spec_sheet: n % 3 === 0 ? media(MEDIA_IDS.specSheet[n % 2]!) : n % 3 === 1 ? media(MEDIA_IDS.product[(n + 1) % MEDIA_IDS.product.length]!) : '',
        designer: item('people', PEOPLE_FIRST_ID + (n % PEOPLE_NAMES.length)),
        released: `${2020 + (n % 4)}-${String((n % 12) + 1).padStart(2, '0')}-01T00:00:00`,
      },
    });
  }
  return products;
}

function buildMenu(): FakeItem[] {
  const entries: Array<[string, string]> = [
    ['Home', '/'],
    ['Products', '/products'],
    ['Rocket Skates', '/products/rocket-skates'],
    ['Events', '/events'],
    ['Blog', '/blog'],
    ['About us', '/about'],
    ['Contact', '/contact'],
    ['Careers', 'https://jobs.acme.test/'],
  ];
  return entries.map(([label, url], n): FakeItem => ({
    id: MENU_FIRST_ID + n,
    fields: {
      label,
      url,
      position: n + 1,
      open_in_new_tab: url.startsWith('https://'),
      featured_products:
        n === 1 ? [item('products', 812044), item('products', 812045), item('products', 812046)] : n === 2 ? [item('products', 812044)] : [],
      icon: n < 2 ? media(MEDIA_IDS.menuIcon[n]!) : '',
    },
  }));
}

// ------------------------------------------------------------------------------------------------
// Pages.

const EVENT_SLUGS = ['acme-expo-2024', 'rocket-meetup', 'anvil-safety-webinar'] as const;
const PRODUCT_PAGE_SLUGS = ['rocket-skates', 'giant-magnet', 'acme-anvil', 'jet-pack', 'earthquake-pills'] as const;
const LANDING_PAGE_COUNT = 27;
const CAMPAIGNS = [
  'Autumn Deals',
  'Winter Warmers',
  'Back to School',
  'Black Friday',
  'Cyber Monday',
  'New Year Rockets',
  'Valentine Anvils',
  'Easter Eggs-plosives',
  'Desert Days',
  'Canyon Clearance',
  'Mesa Madness',
  'Cliffhanger Sale',
  'Boulder Bargains',
  'Gadget Week',
  'Inventor Fair',
  'Spring Cleaning',
  'Member Exclusive',
  'Free Shipping Friday',
  'Refurbished Rockets',
  'Gift Guide',
  'Clearance Corner',
  'Launch Anniversary',
  'Road Trip Ready',
  'Bundle Bonanza',
  'Last Chance',
];

function stamp(date: string, micros: number): string {
  return `${date}.${String(micros).padStart(6, '0')}Z`;
}

function dayOffset(start: string, days: number): string {
  return new Date(Date.parse(`${start}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function heroInstance(headline: string, image: MediaRef, label: string, url: string): RawObject {
  return { type: 'hero', fields: { headline, image, button_label: label, button_url: url } };
}

function twoColumn(headline: string, html: string, image: MediaRef, position: 'left' | 'right'): RawObject {
  return { type: 'two_column_with_image', fields: { headline, subheadline: html, image, image_position: position } };
}

function buildLandingPages(): FakePage[] {
  const pages: FakePage[] = [
    {
      slug: 'spring-launch',
      name: 'Spring Launch',
      published: '2024-04-02T09:15:22.318204Z',
      updated: '2024-04-05T16:40:01.904112Z',
      page_type: 'landing-page',
      fields: {
        seo: { title: 'Spring Launch | Acme', description: 'Everything new this spring.' },
        headline: 'Meet the new Acme Rocket',
        intro: '<p>Faster than <strong>ever</strong>.</p>',
        hero_image: media(MEDIA_IDS.springHero),
        launch_date: '2024-04-15T00:00:00',
        price: 199.99,
        is_featured: true,
        theme: 'dark',
        author: item('people', 812001),
        related_products: [item('products', 812044), item('products', 812045)],
        faq: [
          { question: 'Does it ship worldwide?', answer: 'Yes.' },
          { question: 'Warranty?', answer: 'One year.' },
        ],
        body: [
          heroInstance('Launch day', media(MEDIA_IDS.launchHero), 'Buy now', '/buy'),
          twoColumn('Built tough', '<p>Steel frame.</p>', media(MEDIA_IDS.builtTough), 'right'),
        ],
        featured_event: page('acme-expo-2024'),
      },
    },
    {
      slug: 'summer-sale',
      name: 'Summer Sale',
      published: '2024-06-01T00:00:00.000000Z',
      updated: '2024-06-02T11:03:44.120003Z',
      page_type: 'landing-page',
      fields: {
        seo: { title: 'Summer Sale', description: '' },
        headline: 'Up to 40% off',
        intro: '',
        hero_image: media(MEDIA_IDS.summerHero),
        launch_date: '2024-06-01T08:00:00',
        price: 0,
        is_featured: false,
        theme: 'light',
        author: item('people', 812001),
        related_products: [],
        faq: [],
        body: [],
        featured_event: null,
      },
    },
  ];
  for (let n = 2; n < LANDING_PAGE_COUNT; n += 1) {
    const name = CAMPAIGNS[n - 2]!;
    const day = dayOffset('2024-03-20', n * 11);
    const heroId = n === 2 ? MEDIA_IDS.springHeroCopy : MEDIA_IDS.landingHero[n % MEDIA_IDS.landingHero.length]!;
    const body: RawObject[] = [];
    if (n % 2 === 0) body.push(heroInstance(`${name} is here`, media(MEDIA_IDS.landingHero[n % 4]!), 'Shop now', `/sale/${slugOf(name)}`));
    if (n % 3 === 0) {
      body.push(twoColumn('Why Acme', `<p>Trusted by coyotes since 1949.</p><ul><li>Fast</li><li>Loud</li></ul>`, media(MEDIA_IDS.product[n % 6]!), n % 2 === 0 ? 'left' : 'right'));
    }
    if (n % 5 === 0) body.push(heroInstance('One more thing', media(MEDIA_IDS.launchHero), 'Learn more', '/more'));
    pages.push({
      slug: slugOf(name),
      name,
      published: stamp(`${day}T08:${String(n).padStart(2, '0')}:00`, n * 1013),
      updated: stamp(`${dayOffset(day, -2)}T17:30:${String(n).padStart(2, '0')}`, n * 7919),
      page_type: 'landing-page',
      fields: {
        seo: { title: `${name} | Acme`, description: n % 4 === 0 ? '' : `Save big during ${name}.` },
        headline: `${name}: deals on everything`,
        intro: n % 7 === 0 ? '' : `<p>${name} runs for <strong>${(n % 10) + 3} days</strong> only.</p>`,
        hero_image: media(heroId),
        launch_date: `${day}T00:00:00`,
        price: n % 2 === 0 ? 49 + n : 19.95 + n,
        is_featured: n % 4 === 1,
        theme: n % 2 === 0 ? 'dark' : 'light',
        author: item('people', PEOPLE_FIRST_ID + (n % 4)),
        related_products: Array.from({ length: n % 4 }, (_, k) => item('products', PRODUCTS_FIRST_ID + ((n * 7 + k * 13) % PRODUCT_COUNT))),
        faq:
          n % 3 === 1
            ? [
                { question: `When does ${name} end?`, answer: `It ends ${(n % 10) + 3} days after launch.` },
                { question: 'Can I combine offers?', answer: 'No.' },
              ]
            : [],
        body,
        featured_event: n % 6 === 0 ? page(EVENT_SLUGS[(n / 6) % EVENT_SLUGS.length]!) : null,
      },
    });
  }
  return pages;
}

function buildEventPages(): FakePage[] {
  const details = [
    { title: 'Acme Expo 2024', starts: '2024-09-12T18:30:00', venue: 'Desert Convention Center', capacity: 1200, online: false },
    { title: 'Rocket Meetup', starts: '2024-07-04T19:00:00', venue: 'Canyon Rim Pavilion', capacity: 80, online: false },
    { title: 'Anvil Safety Webinar', starts: '2024-05-21T16:00:00', venue: 'Online', capacity: 500, online: true },
  ];
  return details.map((d, n): FakePage => ({
    slug: EVENT_SLUGS[n]!,
    name: d.title,
    published: stamp(`2024-0${3 + n}-0${1 + n}T10:00:00`, 120 + n),
    updated: stamp(`2024-0${3 + n}-1${n}T12:15:00`, 4500 + n),
    page_type: 'event-page',
    fields: {
      title: d.title,
      starts_at: d.starts,
      venue: d.venue,
      capacity: d.capacity,
      is_online: d.online,
      poster: media(MEDIA_IDS.poster[n]!),
      description: `<p>Join us for <strong>${d.title}</strong>.</p><p>Bring a helmet.</p>`,
      speakers: [item('people', PEOPLE_FIRST_ID + n), item('people', PEOPLE_FIRST_ID + n + 3)],
      agenda: [
        { time: '18:30', topic: 'Welcome', speaker: item('people', PEOPLE_FIRST_ID + n) },
        { time: '19:00', topic: `Deep dive: ${d.title}`, speaker: item('people', PEOPLE_FIRST_ID + n + 3) },
      ],
    },
  }));
}

function buildProductPages(): FakePage[] {
  const productIds = [812044, 812045, 812050, 812042, 812043];
  return PRODUCT_PAGE_SLUGS.map((slug, n): FakePage => {
    const name = slug
      .split('-')
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' ');
    const body: RawObject[] = [heroInstance(name, media(MEDIA_IDS.product[n]!), 'Add to cart', `/cart/add/${slug}`)];
    if (n % 2 === 0) {
      body.push({
        type: 'feature_list',
        fields: { title: 'Features', items: `<ul><li>Patented</li><li>${n + 2}x faster</li></ul>`, columns: 2 + n },
      });
    }
    return {
      slug,
      name,
      published: stamp(`2023-1${n % 3}-0${n + 1}T09:00:00`, 990 + n),
      updated: stamp(`2024-01-0${n + 1}T09:30:00`, 880 + n),
      page_type: 'product-page',
      fields: {
        seo: { title: `${name} | Acme`, description: `Buy ${name} from Acme.` },
        product: item('products', productIds[n]!),
        tagline: `The only ${name.toLowerCase()} you will ever need`,
        description: `<h2>${name}</h2><p>Engineered in the desert.</p>`,
        gallery: [
          { image: media(MEDIA_IDS.gallery[n % 4]!), caption: `${name} in action` },
          { image: media(MEDIA_IDS.gallery[(n + 1) % 4]!), caption: '' },
        ],
        specs: [
          { label: 'Weight', value: `${n + 1} kg` },
          { label: 'Warranty', value: 'One year' },
        ],
        body,
        related_pages: PRODUCT_PAGE_SLUGS.filter((s) => s !== slug)
          .slice(0, 2)
          .map((s) => page(s)),
      },
    };
  });
}

function buildSinglePages(base: string): FakePage[] {
  return [
    {
      slug: 'home',
      name: 'Home',
      published: '2023-01-10T08:00:00.000000Z',
      updated: '2024-05-01T07:45:12.512900Z',
      page_type: null,
      fields: {
        seo_title: 'Acme Corporation',
        headline: 'Everything a coyote needs',
        hero_banner: {
          headline: 'Acme Rocket',
          subheadline: '<p>Now with <em>more</em> thrust.</p>',
          image: media(MEDIA_IDS.springHeroCopy),
          cta_label: 'See it',
          cta_url: '/spring-launch',
        },
        sections: [
          heroInstance('Welcome to Acme', media(MEDIA_IDS.landingHero[0]!), 'Browse', '/products'),
          twoColumn('Since 1949', '<p>Family owned.</p>', media(MEDIA_IDS.officePhoto), 'left'),
        ],
        announcement: '<p><a href="/summer-sale">Summer sale</a> starts June 1.</p>',
        featured_products: [item('products', 812044), item('products', 812045), item('products', 812060)],
      },
    },
    {
      slug: 'about',
      name: 'About',
      published: '2023-01-10T08:05:00.000000Z',
      updated: '2024-02-14T14:02:51.000331Z',
      page_type: null,
      fields: {
        seo_title: 'About Acme',
        headline: 'About us',
        body: `<p>Acme makes gadgets.</p><p><img src="${base}/${MEDIA_IDS.inlineDiagram}" alt="Anvil trajectory diagram"></p>`,
        team: [item('people', 812001), item('people', 812002), item('people', 812003)],
        founded: '1949-09-17T00:00:00',
        employees: 250,
        values: [
          { title: 'Speed', description: 'Faster than a road runner.' },
          { title: 'Safety', description: 'Mostly.\nTerms apply.' },
        ],
      },
    },
    {
      slug: 'contact',
      name: 'Contact',
      published: '2023-01-10T08:10:00.000000Z',
      updated: '2023-11-30T09:00:00.000000Z',
      page_type: null,
      fields: {
        seo_title: 'Contact Acme',
        headline: 'Get in touch',
        email: 'hello@acme.test',
        address: '1 Canyon Road\nDesert Flats\nAZ 85001',
        show_map: true,
        office_photo: media(MEDIA_IDS.officePhoto),
        menu: [item('navigation_menu_item', MENU_FIRST_ID), item('navigation_menu_item', MENU_FIRST_ID + 6)],
      },
    },
  ];
}

// ------------------------------------------------------------------------------------------------
// Blog.

function author(first: string, last: string, slug: string, extra: Partial<FakeAuthor> = {}): FakeAuthor {
  return {
    first_name: first,
    last_name: last,
    email: '',
    slug,
    bio: '',
    title: '',
    linkedin_url: '',
    facebook_url: '',
    instagram_url: '',
    pinterest_url: '',
    twitter_handle: '',
    profile_image: '',
    ...extra,
  };
}

function buildAuthors(base: string): FakeAuthor[] {
  return [
    author('Road', 'Runner', 'road-runner', {
      email: 'rr@acme.test',
      bio: 'Chief tester.',
      title: 'QA',
      twitter_handle: 'beepbeep',
      profile_image: `${base}/${MEDIA_IDS.runnerProfile}`,
    }),
    author('Wile E.', 'Coyote', 'wile-e-coyote'),
    author('Marvin', 'Martian', 'marvin-martian', {
      email: 'marvin@mars.test',
      bio: 'Visiting engineer.',
      title: 'Engineer',
      linkedin_url: 'https://www.linkedin.com/in/marvin-martian',
      profile_image: `${base}/${MEDIA_IDS.marvinProfile}`,
    }),
    author('Granny', 'Webb', 'granny-webb', { bio: 'Keeps everyone honest.', title: 'Editor' }),
  ];
}

const CATEGORIES: FakeTerm[] = [
  { name: 'Guides', slug: 'guides' },
  { name: 'News', slug: 'news' },
  { name: 'Reviews', slug: 'reviews' },
  { name: 'Engineering', slug: 'engineering' },
];

const TAGS: FakeTerm[] = [
  { name: 'Hardware', slug: 'hardware' },
  { name: 'Rockets', slug: 'rockets' },
  { name: 'Safety', slug: 'safety' },
  { name: 'Anvils', slug: 'anvils' },
  { name: 'How-to', slug: 'how-to' },
  { name: 'Announcements', slug: 'announcements' },
];

const POST_COUNT = 23;
const POST_TOPICS = [
  'Choosing a catapult',
  'Jet pack maintenance',
  'Earthquake pills explained',
  'Painting tunnels on rock',
  'Magnet safety',
  'Portable holes FAQ',
  'Acme Expo recap',
  'Rocket skates: year one',
  'Giant kites in high wind',
  'Instant glue mishaps',
  'Boulder logistics',
  'Behind the scenes',
  'Spring launch notes',
  'Dehydrated boulders',
  'Triple spring testing',
  'Slingshot physics',
  'Warranty changes',
  'Customer stories',
  'Desert shipping',
  'New office',
  'Product roadmap',
];

function buildPosts(base: string): FakePost[] {
  const posts: FakePost[] = [
    {
      status: 'published',
      created: '2024-05-10T08:12:40.551203Z',
      updated: '2024-05-11T10:00:03.004411Z',
      published: '2024-05-10T08:00:00Z',
      title: 'Anvils 101',
      slug: 'anvils-101',
      body: `<p>Heavy.</p><p><img src="${base}/${MEDIA_IDS.inlineDiagram}" alt="Anvil trajectory diagram"></p>`,
      summary: 'Everything you need to know about anvils.',
      seo_title: 'Anvils 101 – Acme Blog',
      meta_description: "A beginner's guide to anvils.",
      featured_image: `${base}/${MEDIA_IDS.anvilFeatured}`,
      featured_image_alt: 'An anvil on a cliff',
      author: 'road-runner',
      tags: ['hardware'],
      categories: ['guides'],
    },
    {
      status: 'published',
      created: '2024-04-01T12:00:00.000000Z',
      updated: '2024-04-01T12:30:10.200000Z',
      published: '2024-04-01T12:00:00Z',
      title: 'Rocket skates review',
      slug: 'rocket-skates-review',
      body: '<p>They are <strong>fast</strong>. Stopping is another matter.</p>',
      summary: '',
      seo_title: '',
      meta_description: '',
      featured_image: null,
      featured_image_alt: '',
      author: 'wile-e-coyote',
      tags: [],
      categories: [],
    },
  ];
  const authors = ['road-runner', 'wile-e-coyote', 'marvin-martian', 'granny-webb'];
  for (let n = 2; n < POST_COUNT; n += 1) {
    const title = POST_TOPICS[n - 2]!;
    const day = dayOffset('2024-03-25', (n - 2) * 9);
    const image = n % 4 === 0 ? null : `${base}/${MEDIA_IDS.postImage[n % 4]!}`;
    posts.push({
      status: 'published',
      created: stamp(`${day}T09:00:00`, n * 3301),
      updated: stamp(`${dayOffset(day, -1)}T11:20:00`, n * 17),
      published: `${day}T09:30:00Z`,
      title,
      slug: slugOf(title),
      body: `<h2>${title}</h2><p>Part ${n} of our ongoing series.</p>${n % 5 === 0 ? `<p><img src="${base}/${MEDIA_IDS.postImage[0]!}" alt="Illustration"></p>` : ''}`,
      summary: n % 3 === 0 ? '' : `A short read about ${title.toLowerCase()}.`,
      seo_title: `${title} – Acme Blog`,
      meta_description: n % 3 === 0 ? '' : `Read about ${title.toLowerCase()}.`,
      featured_image: image,
      featured_image_alt: image ? `${title} illustration` : '',
      author: authors[n % authors.length]!,
      tags: [TAGS[n % TAGS.length]!.slug, ...(n % 2 === 0 ? [TAGS[(n + 3) % TAGS.length]!.slug] : [])],
      categories: [CATEGORIES[n % CATEGORIES.length]!.slug],
    });
  }
  return posts;
}

// ------------------------------------------------------------------------------------------------

/** Builds the account; `mediaBaseUrl` is where the fake serves media (`http://127.0.0.1:PORT/media`). */
export function createFakeAccount(mediaBaseUrl: string): FakeAccount {
  const base = mediaBaseUrl.replace(/\/+$/, '');
  return {
    mediaBaseUrl: base,
    media: buildMedia(),
    pages: [...buildSinglePages(base), ...buildLandingPages(), ...buildProductPages(), ...buildEventPages()],
    collections: {
      people: buildPeople(),
      products: buildProducts(),
      navigation_menu_item: buildMenu(),
    },
    posts: buildPosts(base),
    authors: buildAuthors(base),
    categories: CATEGORIES.map((t) => ({ ...t })),
    tags: TAGS.map((t) => ({ ...t })),
  };
}

/** What an importer is told up front: event-page is missing on purpose (it must be discovered). */
export const fakeImportConfig = {
  pageTypes: ['landing-page', 'product-page'],
  collections: ['people', 'products', 'navigation_menu_item'],
} as const;

/** Media ids referenced anywhere in the account: fields, post images, author images, inside HTML. */
export function referencedMediaIds(account: FakeAccount): { all: string[]; inFields: string[]; onlyInHtml: string[] } {
  const inFields = new Set<string>();
  const inHtml = new Set<string>();
  const prefix = `${account.mediaBaseUrl}/`;
  const fromUrl = (url: string): string | undefined => (url.startsWith(prefix) ? url.slice(prefix.length) : undefined);
  const htmlIds = (html: string): void => {
    for (const m of html.matchAll(/src="([^"]+)"/g)) {
      const id = fromUrl(m[1] ?? '');
      if (id) inHtml.add(id);
    }
  };
  const visit = (v: RawValue): void => {
    if (isMediaRef(v)) inFields.add(v.$media);
    else if (typeof v === 'string') htmlIds(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object' && !isItemRef(v) && !isPageRef(v)) Object.values(v).forEach(visit);
  };
  account.pages.forEach((p) => visit(p.fields));
  Object.values(account.collections).forEach((items) => items.forEach((i) => visit(i.fields)));
  for (const post of account.posts) {
    const id = post.featured_image ? fromUrl(post.featured_image) : undefined;
    if (id) inFields.add(id);
    htmlIds(post.body);
  }
  for (const a of account.authors) {
    const id = fromUrl(a.profile_image);
    if (id) inFields.add(id);
  }
  const all = [...new Set([...inFields, ...inHtml])].sort();
  return { all, inFields: [...inFields].sort(), onlyInHtml: [...inHtml].filter((id) => !inFields.has(id)).sort() };
}

function countExpected() {
  const account = createFakeAccount('http://fake.invalid/media');
  const byType = (type: string | null) => account.pages.filter((p) => p.page_type === type).length;
  const mediaIds = referencedMediaIds(account);
  const hashes = new Set(
    mediaIds.all.map((id) => account.media.find((m) => m.id === id)?.sha256 ?? `missing:${id}`),
  );
  const collections = Object.fromEntries(Object.entries(account.collections).map(([k, v]) => [k, v.length]));
  return {
    pageTypes: { 'landing-page': byType('landing-page'), 'product-page': byType('product-page'), 'event-page': byType('event-page') },
    /** Page types reachable only through references from other pages. */
    discoverablePageTypes: ['event-page'],
    singlePages: byType(null),
    pages: account.pages.length,
    collections: collections as { people: number; products: number; navigation_menu_item: number },
    collectionItems: Object.values(collections).reduce((a, b) => a + b, 0),
    posts: account.posts.length,
    authors: account.authors.length,
    authorsWithEmail: account.authors.filter((a) => a.email !== '').length,
    categories: account.categories.length,
    tags: account.tags.length,
    /** Kebab-case slugs an importer should create (picker types and embedded components). */
    components: ['feature-list', 'hero', 'hero-banner', 'seo', 'two-column-with-image'],
    media: {
      /** Distinct media URLs anywhere in the content, HTML bodies included. */
      urls: mediaIds.all.length,
      /** Distinct media URLs in fields, post featured images and author images (not only in HTML). */
      urlsOutsideHtml: mediaIds.inFields.length,
      /** URLs that appear only inside WYSIWYG/post HTML. */
      urlsOnlyInHtml: mediaIds.onlyInHtml.length,
      /** Distinct byte contents: one URL pair shares its bytes. */
      uniqueContents: hashes.size,
    },
  };
}

/** Counts an import of the fake account should produce. Checked against literals in server.test.ts. */
export const expectedCounts = countExpected();
