/**
 * The sandbox's one word list: every name, place and invented organisation the providers and the leak
 * generator draw from. Names are common given names and surnames, combined at random, so no generated
 * persona is a real person. Companies, banks, insurers, schools, shops and breached services are
 * invented; every domain is under the reserved example.* / .test names.
 *
 * Generated data depends on each list's contents and order: adding, removing or reordering a word
 * re-draws the personas (and leak records) that pick from the list, and with them the demo data tests
 * pin. The leak generator's lists, at the end, are named sublists of the ones above where they share
 * words, so that each word is written once.
 */

// biome-ignore format: compact word list
export const MALE_FIRST = [
  'Aarav', 'Aditya', 'Akash', 'Amit', 'Anand', 'Anil', 'Arjun', 'Ashok', 'Deepak', 'Dev', 'Dhruv', 'Farhan',
  'Gaurav', 'Harish', 'Imran', 'Ishaan', 'Jatin', 'Karan', 'Kunal', 'Manoj', 'Mohit', 'Naveen', 'Nikhil',
  'Pranav', 'Rahul', 'Rajesh', 'Rakesh', 'Ravi', 'Rohit', 'Sachin', 'Sameer', 'Sandeep', 'Sanjay',
  'Siddharth', 'Suresh', 'Tarun', 'Varun', 'Vijay', 'Vikram', 'Vivek', 'Yash', 'Zubin',
] as const;

// biome-ignore format: compact word list
export const FEMALE_FIRST = [
  'Aditi', 'Aisha', 'Ananya', 'Anjali', 'Bhavna', 'Deepa', 'Divya', 'Fatima', 'Gayatri', 'Ishita', 'Jyoti',
  'Kavya', 'Kiran', 'Lakshmi', 'Meera', 'Megha', 'Neha', 'Nisha', 'Pooja', 'Priya', 'Radhika', 'Rekha',
  'Riya', 'Sakshi', 'Sana', 'Shreya', 'Simran', 'Sneha', 'Sunita', 'Swati', 'Tanvi', 'Trisha', 'Vandana',
  'Zoya',
] as const;

/** Middle names are usually the father's given name (as on Maharashtra / Gujarat documents). */
// biome-ignore format: compact word list
export const MIDDLE = [
  'Kumar', 'Prakash', 'Ramesh', 'Suresh', 'Mahesh', 'Dinesh', 'Vinod', 'Ashok', 'Rajendra', 'Mohan',
  'Shankar', 'Gopal', 'Narayan', 'Krishna', 'Vasant', 'Arvind',
] as const;

// biome-ignore format: compact word list
export const LAST = [
  'Agarwal', 'Bhat', 'Banerjee', 'Chatterjee', 'Chauhan', 'Das', 'Desai', 'Deshmukh', 'Gupta', 'Iyer',
  'Jain', 'Joshi', 'Kapoor', 'Khan', 'Kulkarni', 'Kumar', 'Malhotra', 'Menon', 'Mishra', 'Nair', 'Patel',
  'Pillai', 'Rao', 'Reddy', 'Saxena', 'Shah', 'Sharma', 'Shetty', 'Singh', 'Sinha', 'Srivastava', 'Thakur',
  'Trivedi', 'Verma', 'Yadav', 'Qureshi', 'Fernandes', 'Gill',
] as const;

/** Nicknames people save contacts under; `{f}` is the first name, `{l}` the surname. */
// biome-ignore format: compact word list
export const CALLER_ID_VARIANTS = [
  '{f} {l}', '{f} {l}', '{f}', '{f} {L1}', '{f} Bhai', '{f} Office', '{l} {f}', '{f} {l} New', '{F}',
  '{f} Jio', '{f} Bro', '{f} Ji', '{f} {l} Work',
] as const;

export interface City {
  city: string;
  district: string;
  state: string;
  stateCode: string;
  /** First three digits of the city's PIN codes. */
  pinPrefix: string;
  /** City-centre coordinates. */
  lat: number;
  lng: number;
  /** RTO codes in the city, for vehicle registrations. */
  rto: readonly string[];
  localities: readonly string[];
}

// biome-ignore format: one entry a line
export const CITIES: readonly City[] = [
  { city: 'Mumbai', district: 'Mumbai Suburban', state: 'Maharashtra', stateCode: 'MH', pinPrefix: '400', lat: 19.076, lng: 72.8777, rto: ['01', '02', '03', '47'], localities: ['Andheri West', 'Borivali East', 'Chembur', 'Dadar', 'Goregaon East', 'Malad West', 'Powai'] },
  { city: 'Pune', district: 'Pune', state: 'Maharashtra', stateCode: 'MH', pinPrefix: '411', lat: 18.5204, lng: 73.8567, rto: ['12', '14'], localities: ['Kothrud', 'Aundh', 'Baner', 'Hadapsar', 'Viman Nagar', 'Wakad', 'Shivajinagar'] },
  { city: 'New Delhi', district: 'South Delhi', state: 'Delhi', stateCode: 'DL', pinPrefix: '110', lat: 28.6139, lng: 77.209, rto: ['3C', '4C', '8C', '2C'], localities: ['Lajpat Nagar', 'Saket', 'Dwarka Sector 10', 'Rohini Sector 7', 'Mayur Vihar Phase 1', 'Karol Bagh'] },
  { city: 'Bengaluru', district: 'Bengaluru Urban', state: 'Karnataka', stateCode: 'KA', pinPrefix: '560', lat: 12.9716, lng: 77.5946, rto: ['01', '03', '05', '51', '53'], localities: ['Indiranagar', 'Koramangala 5th Block', 'Jayanagar 4th Block', 'Whitefield', 'HSR Layout', 'Malleshwaram'] },
  { city: 'Hyderabad', district: 'Hyderabad', state: 'Telangana', stateCode: 'TS', pinPrefix: '500', lat: 17.385, lng: 78.4867, rto: ['07', '08', '09', '10'], localities: ['Banjara Hills', 'Kukatpally', 'Madhapur', 'Begumpet', 'Gachibowli', 'Secunderabad'] },
  { city: 'Chennai', district: 'Chennai', state: 'Tamil Nadu', stateCode: 'TN', pinPrefix: '600', lat: 13.0827, lng: 80.2707, rto: ['01', '07', '09', '22'], localities: ['Adyar', 'T. Nagar', 'Velachery', 'Anna Nagar', 'Mylapore', 'Tambaram'] },
  { city: 'Kolkata', district: 'Kolkata', state: 'West Bengal', stateCode: 'WB', pinPrefix: '700', lat: 22.5726, lng: 88.3639, rto: ['02', '06', '20', '26'], localities: ['Salt Lake Sector V', 'Ballygunge', 'Behala', 'Gariahat', 'New Town', 'Dum Dum'] },
  { city: 'Ahmedabad', district: 'Ahmedabad', state: 'Gujarat', stateCode: 'GJ', pinPrefix: '380', lat: 23.0225, lng: 72.5714, rto: ['01', '27', '38'], localities: ['Navrangpura', 'Satellite', 'Maninagar', 'Bodakdev', 'Vastrapur', 'Chandkheda'] },
  { city: 'Jaipur', district: 'Jaipur', state: 'Rajasthan', stateCode: 'RJ', pinPrefix: '302', lat: 26.9124, lng: 75.7873, rto: ['14', '45', '59'], localities: ['Malviya Nagar', 'Vaishali Nagar', 'Mansarovar', 'C-Scheme', 'Raja Park'] },
  { city: 'Lucknow', district: 'Lucknow', state: 'Uttar Pradesh', stateCode: 'UP', pinPrefix: '226', lat: 26.8467, lng: 80.9462, rto: ['32'], localities: ['Gomti Nagar', 'Aliganj', 'Hazratganj', 'Indira Nagar', 'Alambagh'] },
  { city: 'Kochi', district: 'Ernakulam', state: 'Kerala', stateCode: 'KL', pinPrefix: '682', lat: 9.9312, lng: 76.2673, rto: ['07', '39', '41'], localities: ['Kakkanad', 'Edappally', 'Vyttila', 'Fort Kochi', 'Kaloor'] },
  { city: 'Indore', district: 'Indore', state: 'Madhya Pradesh', stateCode: 'MP', pinPrefix: '452', lat: 22.7196, lng: 75.8577, rto: ['09'], localities: ['Vijay Nagar', 'Palasia', 'Rajendra Nagar', 'Bhawarkua', 'Sudama Nagar'] },
  { city: 'Chandigarh', district: 'Chandigarh', state: 'Chandigarh', stateCode: 'CH', pinPrefix: '160', lat: 30.7333, lng: 76.7794, rto: ['01'], localities: ['Sector 17', 'Sector 22', 'Sector 35', 'Manimajra', 'Sector 44'] },
  { city: 'Bhubaneswar', district: 'Khordha', state: 'Odisha', stateCode: 'OD', pinPrefix: '751', lat: 20.2961, lng: 85.8245, rto: ['02', '33'], localities: ['Saheed Nagar', 'Patia', 'Nayapalli', 'Jaydev Vihar', 'Old Town'] },
  { city: 'Patna', district: 'Patna', state: 'Bihar', stateCode: 'BR', pinPrefix: '800', lat: 25.5941, lng: 85.1376, rto: ['01'], localities: ['Boring Road', 'Kankarbagh', 'Rajendra Nagar', 'Patliputra Colony', 'Bailey Road'] },
  { city: 'Guwahati', district: 'Kamrup Metropolitan', state: 'Assam', stateCode: 'AS', pinPrefix: '781', lat: 26.1445, lng: 91.7362, rto: ['01'], localities: ['Dispur', 'Zoo Road', 'Beltola', 'Chandmari', 'Paltan Bazaar'] },
];

/** Invented housing-society and building names. */
// biome-ignore format: compact word list
export const BUILDINGS = [
  'Gulmohar Residency', 'Shanti Kunj', 'Sai Krupa Apartments', 'Lotus Heights', 'Neelkanth Towers',
  'Green Valley Society', 'Sunflower CHS', 'Ashirwad Enclave', 'Mangal Murti Complex', 'Palm Grove',
  'Silver Oak Residency', 'Tulsi Vihar', 'Kamdhenu Park', 'Om Shree Niwas', 'Riverview Apartments',
] as const;

export interface Carrier {
  /** Short name caller-id apps show. */
  short: string;
  /** Operator name HLR lookups report. */
  network: string;
  /** MCC+MNC an HLR reports for it. */
  mccmnc: readonly string[];
}

export const CARRIERS = {
  jio: { short: 'Jio', network: 'Reliance Jio Infocomm', mccmnc: ['405857', '405861', '405872'] },
  airtel: { short: 'Airtel', network: 'Bharti Airtel', mccmnc: ['40410', '40445', '40490'] },
  vi: { short: 'Vi', network: 'Vodafone Idea', mccmnc: ['40420', '40411', '40486'] },
  bsnl: { short: 'BSNL', network: 'BSNL Mobile', mccmnc: ['40453', '40471', '40438'] },
} as const satisfies Record<string, Carrier>;
export type CarrierKey = keyof typeof CARRIERS;

/** Invented employers (domains under example.com). */
// biome-ignore format: one entry a line
export const EMPLOYERS = [
  { name: 'Nimbuslane Technologies Pvt Ltd', slug: 'nimbuslane', sector: 'tech' },
  { name: 'Deccanbyte Fintech', slug: 'deccanbyte', sector: 'finance' },
  { name: 'Saffronleaf Analytics LLP', slug: 'saffronleaf', sector: 'tech' },
  { name: 'Kaveriworks Logistics', slug: 'kaveriworks', sector: 'logistics' },
  { name: 'Tarangini Textiles', slug: 'tarangini', sector: 'manufacturing' },
  { name: 'Bluepeak Hospitality', slug: 'bluepeak', sector: 'hospitality' },
  { name: 'Rainstreet Media House', slug: 'rainstreet', sector: 'media' },
  { name: 'Greenmango Foods', slug: 'greenmango', sector: 'retail' },
  { name: 'Silvercoil Engineering', slug: 'silvercoil', sector: 'manufacturing' },
  { name: 'Pixelkite Studios', slug: 'pixelkite', sector: 'media' },
  { name: 'Harbourline Shipping Agencies', slug: 'harbourline', sector: 'logistics' },
  { name: 'Sunmesh Solar Systems', slug: 'sunmesh', sector: 'energy' },
  { name: 'Vedantra Healthcare', slug: 'vedantra', sector: 'health' },
  { name: 'Quillnest Education Services', slug: 'quillnest', sector: 'education' },
] as const;
export type Sector = (typeof EMPLOYERS)[number]['sector'];

export const TITLES: Record<Sector, readonly string[]> = {
  tech: [
    'Software Engineer',
    'Senior Software Engineer',
    'QA Analyst',
    'Data Analyst',
    'DevOps Engineer',
    'Product Manager',
  ],
  finance: [
    'Relationship Manager',
    'Credit Analyst',
    'Accounts Executive',
    'Collections Officer',
    'Branch Operations Lead',
  ],
  logistics: ['Operations Executive', 'Fleet Supervisor', 'Warehouse Manager', 'Dispatch Coordinator'],
  manufacturing: ['Production Engineer', 'Quality Inspector', 'Plant Supervisor', 'Procurement Officer'],
  hospitality: [
    'Front Office Manager',
    'Guest Relations Executive',
    'Chef de Partie',
    'Banquet Sales Manager',
  ],
  media: ['Video Editor', 'Content Writer', 'Graphic Designer', 'Social Media Manager'],
  retail: ['Store Manager', 'Sales Executive', 'Area Sales Manager', 'Merchandiser'],
  energy: ['Site Engineer', 'Installation Technician', 'Project Coordinator'],
  health: ['Staff Nurse', 'Lab Technician', 'Pharmacist', 'Medical Representative'],
  education: ['Teacher', 'Academic Counsellor', 'Curriculum Designer', 'Centre Head'],
};

export const SKILLS: Record<Sector, readonly string[]> = {
  tech: [
    'JavaScript',
    'TypeScript',
    'SQL',
    'Python',
    'React',
    'Node.js',
    'AWS',
    'Agile Methodologies',
    'Git',
  ],
  finance: [
    'Financial Analysis',
    'Tally ERP',
    'MS Excel',
    'Credit Risk',
    'Customer Relationship Management',
    'GST',
  ],
  logistics: ['Supply Chain Management', 'Inventory Control', 'SAP', 'Fleet Management', 'Vendor Management'],
  manufacturing: ['AutoCAD', 'Six Sigma', 'Lean Manufacturing', 'Quality Control', 'Procurement'],
  hospitality: ['Hospitality Management', 'Event Planning', 'Customer Service', 'Food & Beverage'],
  media: ['Adobe Premiere Pro', 'Photoshop', 'Copywriting', 'Social Media Marketing', 'SEO'],
  retail: ['Retail Sales', 'Visual Merchandising', 'Team Leadership', 'Negotiation'],
  energy: ['Solar PV Design', 'Project Management', 'Electrical Maintenance', 'AutoCAD'],
  health: ['Patient Care', 'Clinical Research', 'Pharmacology', 'Medical Sales'],
  education: ['Teaching', 'Curriculum Development', 'Public Speaking', 'Counselling'],
};

export const OCCUPATIONS: Record<Sector, string> = {
  tech: 'SALARIED',
  finance: 'SALARIED',
  logistics: 'SALARIED',
  manufacturing: 'SALARIED',
  hospitality: 'SALARIED',
  media: 'SELF EMPLOYED',
  retail: 'SELF EMPLOYED PROFESSIONAL',
  energy: 'SALARIED',
  health: 'SALARIED',
  education: 'SALARIED',
};

export const INCOME_BANDS = [
  'Below 2.5 Lakh',
  '2.5 - 5 Lakh',
  '5 - 10 Lakh',
  '10 - 15 Lakh',
  '15 - 25 Lakh',
  'Above 25 Lakh',
] as const;

/** Invented colleges and universities. */
// biome-ignore format: one entry a line
export const COLLEGES = [
  { name: 'Narmada Valley College of Engineering', slug: 'nvce' },
  { name: 'Gangotri University', slug: 'gangotri-univ' },
  { name: 'Konkan Institute of Management Studies', slug: 'kims-konkan' },
  { name: 'Deccan Plateau University', slug: 'dpu-deccan' },
  { name: 'Vindhya College of Commerce', slug: 'vindhya-commerce' },
  { name: 'Brahmaputra Institute of Science', slug: 'bis-assam' },
  { name: 'Kaveri Delta University', slug: 'kaveri-delta' },
  { name: 'Aravalli School of Business', slug: 'aravalli-sb' },
] as const;

export const SCHOOLS = [
  'Sunrise Public School',
  'Little Flower High School',
  'Vidya Niketan',
  'Modern Convent School',
] as const;

export const DEGREES: Record<Sector, ReadonlyArray<readonly [degree: string, field: string]>> = {
  tech: [
    ['B.Tech', 'Computer Science'],
    ['B.E.', 'Information Technology'],
    ['MCA', 'Computer Applications'],
  ],
  finance: [
    ['B.Com', 'Accounting'],
    ['MBA', 'Finance'],
    ['BBA', 'Banking and Insurance'],
  ],
  logistics: [
    ['BBA', 'Logistics'],
    ['B.Com', 'Commerce'],
    ['MBA', 'Operations'],
  ],
  manufacturing: [
    ['B.E.', 'Mechanical Engineering'],
    ['Diploma', 'Production Engineering'],
  ],
  hospitality: [
    ['BHM', 'Hotel Management'],
    ['B.Sc', 'Hospitality Studies'],
  ],
  media: [
    ['BMM', 'Mass Media'],
    ['B.A.', 'Journalism'],
    ['B.Des', 'Communication Design'],
  ],
  retail: [
    ['B.Com', 'Marketing'],
    ['BBA', 'Retail Management'],
  ],
  energy: [
    ['B.Tech', 'Electrical Engineering'],
    ['Diploma', 'Electrical Engineering'],
  ],
  health: [
    ['B.Sc', 'Nursing'],
    ['B.Pharm', 'Pharmacy'],
    ['DMLT', 'Medical Lab Technology'],
  ],
  education: [
    ['B.Ed', 'Education'],
    ['M.A.', 'English Literature'],
  ],
};

/** Invented banks: [name, IFSC prefix (4 letters)]. */
// biome-ignore format: one entry a line
export const BANKS = [
  { name: 'Konkan Coastal Bank', code: 'KCBX' },
  { name: 'Deccan Sahakari Bank', code: 'DSBX' },
  { name: 'Narmada Valley Bank', code: 'NVBX' },
  { name: 'Trivani Cooperative Bank', code: 'TRVX' },
  { name: 'Himgiri Bank', code: 'HMGX' },
  { name: 'Malabar Spice Bank', code: 'MSBX' },
] as const;

/** UPI handle formats (the part after '@'). */
// biome-ignore format: compact word list
export const UPI_HANDLES = [
  'oksbi', 'okaxis', 'okhdfcbank', 'okicici', 'ybl', 'paytm', 'ibl', 'axl',
] as const;

// biome-ignore format: one entry a line
export const VEHICLES = [
  { maker: 'MARUTI SUZUKI INDIA LTD', model: 'SWIFT VXI', body: 'HATCHBACK', category: 'LMV', fuel: 'PETROL', cc: '1197', seats: '5' },
  { maker: 'MARUTI SUZUKI INDIA LTD', model: 'ERTIGA ZXI CNG', body: 'MPV', category: 'LMV', fuel: 'PETROL/CNG', cc: '1462', seats: '7' },
  { maker: 'HYUNDAI MOTOR INDIA LTD', model: 'CRETA 1.5 SX', body: 'SUV', category: 'LMV', fuel: 'DIESEL', cc: '1493', seats: '5' },
  { maker: 'TATA MOTORS LTD', model: 'NEXON EV', body: 'SUV', category: 'LMV', fuel: 'ELECTRIC(BOV)', cc: '0', seats: '5' },
  { maker: 'HONDA MOTORCYCLE AND SCOOTER INDIA (P) LTD', model: 'ACTIVA 6G', body: 'SOLO', category: '2WN', fuel: 'PETROL', cc: '109', seats: '2' },
  { maker: 'BAJAJ AUTO LTD', model: 'PULSAR 150', body: 'SOLO', category: '2WN', fuel: 'PETROL', cc: '149', seats: '2' },
  { maker: 'TVS MOTOR COMPANY LTD', model: 'JUPITER', body: 'SCOOTER', category: '2WN', fuel: 'PETROL', cc: '110', seats: '2' },
  { maker: 'MAHINDRA & MAHINDRA LTD', model: 'SCORPIO-N Z4', body: 'SUV', category: 'LMV', fuel: 'DIESEL', cc: '2184', seats: '7' },
] as const;

export const COLOURS = [
  'PEARL ARCTIC WHITE',
  'SILKY SILVER',
  'MIDNIGHT BLACK',
  'FIERY RED',
  'GREY',
  'BLUE',
  'WHITE',
] as const;

/** Invented insurers. */
export const INSURERS = [
  'Sahyadri General Insurance Co. Ltd.',
  'Ganga Shield Insurance Ltd.',
  'Vayu Mitra General Insurance',
  'Kesari Assurance Co. Ltd.',
] as const;

/** Traffic offences: common to all vehicles, plus two-wheeler- and car-only ones. */
export const OFFENCES = {
  any: [
    'Jumping red light signal',
    'No parking / wrong parking',
    'Using mobile phone while driving',
    'Driving without valid PUC certificate',
    'Over speeding',
  ],
  twoWheeler: ['Driving two-wheeler without helmet', 'Triple riding on two-wheeler'],
  car: ['Driving without seat belt', 'Tinted glass beyond permissible limit'],
} as const;

export interface FictionalBreach {
  name: string;
  title: string;
  slug: string;
  breachDate: string;
  addedDate: string;
  pwnCount: number;
  description: string;
  dataClasses: string[];
  isVerified: boolean;
  isSensitive: boolean;
  colour: string;
}

/** Invented breached services (brands made up for the sandbox; domains under example.com). */
export const BREACHES: readonly FictionalBreach[] = [
  {
    name: 'Orbitly',
    title: 'Orbitly',
    slug: 'orbitly',
    breachDate: '2019-03-14',
    addedDate: '2019-07-02T10:21:44Z',
    pwnCount: 4_812_337,
    description:
      'In March 2019, the travel booking app Orbitly exposed a database backup containing customer accounts. The data included names, email addresses, phone numbers and bcrypt password hashes.',
    dataClasses: ['Email addresses', 'Names', 'Passwords', 'Phone numbers'],
    isVerified: true,
    isSensitive: false,
    colour: '#3b82f6',
  },
  {
    name: 'KulhadCafeRewards',
    title: 'Kulhad Cafe Rewards',
    slug: 'kulhadcafe',
    breachDate: '2021-08-30',
    addedDate: '2021-11-12T08:02:11Z',
    pwnCount: 1_204_556,
    description:
      'In August 2021, the loyalty programme of the tea-cafe chain Kulhad Cafe was breached. Member names, phone numbers, email addresses, dates of birth and reward balances were posted to a hacking forum.',
    dataClasses: ['Dates of birth', 'Email addresses', 'Names', 'Phone numbers', 'Purchases'],
    isVerified: true,
    isSensitive: false,
    colour: '#b45309',
  },
  {
    name: 'Paisaplume',
    title: 'Paisaplume',
    slug: 'paisaplume',
    breachDate: '2022-01-19',
    addedDate: '2022-04-05T14:40:00Z',
    pwnCount: 2_933_010,
    description:
      'In January 2022, the personal-loan marketplace Paisaplume left an Elasticsearch instance open. It held applicant names, email addresses, phone numbers, employers and income ranges.',
    dataClasses: ['Email addresses', 'Employers', 'Income levels', 'Names', 'Phone numbers'],
    isVerified: true,
    isSensitive: false,
    colour: '#16a34a',
  },
  {
    name: 'Quillnest',
    title: 'Quillnest',
    slug: 'quillnest',
    breachDate: '2018-11-02',
    addedDate: '2019-02-20T09:11:09Z',
    pwnCount: 687_420,
    description:
      'In November 2018, the online tutoring site Quillnest suffered a breach of its forum. Usernames, email addresses, IP addresses and salted MD5 password hashes were exposed.',
    dataClasses: ['Email addresses', 'IP addresses', 'Passwords', 'Usernames'],
    isVerified: true,
    isSensitive: false,
    colour: '#7c3aed',
  },
  {
    name: 'MasalaMeter',
    title: 'Masala Meter',
    slug: 'masalameter',
    breachDate: '2020-06-07',
    addedDate: '2020-09-15T17:30:52Z',
    pwnCount: 3_310_902,
    description:
      'In June 2020, the recipe and food-review community Masala Meter was breached. The data contained usernames, email addresses, genders, geographic locations and unsalted SHA-1 password hashes.',
    dataClasses: ['Email addresses', 'Genders', 'Geographic locations', 'Passwords', 'Usernames'],
    isVerified: true,
    isSensitive: false,
    colour: '#dc2626',
  },
  {
    name: 'Zestmint',
    title: 'Zestmint',
    slug: 'zestmint',
    breachDate: '2023-02-11',
    addedDate: '2023-05-28T06:45:13Z',
    pwnCount: 9_540_118,
    description:
      'In February 2023, the grocery delivery service Zestmint disclosed that an attacker had accessed its order database. Names, phone numbers, delivery addresses and partial order histories were taken.',
    dataClasses: ['Email addresses', 'Names', 'Phone numbers', 'Physical addresses', 'Purchases'],
    isVerified: true,
    isSensitive: false,
    colour: '#059669',
  },
  {
    name: 'Kettlewise',
    title: 'Kettlewise',
    slug: 'kettlewise',
    breachDate: '2017-05-22',
    addedDate: '2018-01-09T12:00:00Z',
    pwnCount: 412_988,
    description:
      'In May 2017, the appliance retailer Kettlewise had its web store compromised. Customer names, email addresses, physical addresses and partial card data were obtained.',
    dataClasses: ['Email addresses', 'Names', 'Partial credit card data', 'Physical addresses'],
    isVerified: false,
    isSensitive: false,
    colour: '#0891b2',
  },
  {
    name: 'RangoliReels',
    title: 'Rangoli Reels',
    slug: 'rangolireels',
    breachDate: '2022-09-03',
    addedDate: '2022-12-01T19:23:37Z',
    pwnCount: 15_208_664,
    description:
      'In September 2022, the short-video app Rangoli Reels exposed user profiles through an unauthenticated API. Usernames, email addresses, phone numbers, dates of birth and device information were scraped.',
    dataClasses: ['Dates of birth', 'Device information', 'Email addresses', 'Phone numbers', 'Usernames'],
    isVerified: true,
    isSensitive: false,
    colour: '#db2777',
  },
  {
    name: 'DhabaDash',
    title: 'Dhaba Dash',
    slug: 'dhabadash',
    breachDate: '2021-03-16',
    addedDate: '2021-06-22T04:50:06Z',
    pwnCount: 2_076_405,
    description:
      'In March 2021, the highway food-ordering app Dhaba Dash was breached. Names, phone numbers, email addresses and saved addresses of customers were exposed.',
    dataClasses: ['Email addresses', 'Names', 'Phone numbers', 'Physical addresses'],
    isVerified: true,
    isSensitive: false,
    colour: '#ea580c',
  },
  {
    name: 'Lorrylane',
    title: 'Lorrylane',
    slug: 'lorrylane',
    breachDate: '2020-12-12',
    addedDate: '2021-02-17T11:33:29Z',
    pwnCount: 338_127,
    description:
      'In December 2020, the freight-matching platform Lorrylane exposed driver and shipper accounts, including names, phone numbers, vehicle registration numbers and passwords stored as plain text.',
    dataClasses: ['Email addresses', 'Names', 'Passwords', 'Phone numbers', 'Vehicle details'],
    isVerified: false,
    isSensitive: false,
    colour: '#4b5563',
  },
  {
    name: 'Pixelpatang',
    title: 'Pixelpatang',
    slug: 'pixelpatang',
    breachDate: '2016-01-14',
    addedDate: '2017-03-30T15:09:51Z',
    pwnCount: 1_855_300,
    description:
      'In January 2016, the gaming forum Pixelpatang was hacked. Usernames, email addresses, IP addresses and vBulletin password hashes were released.',
    dataClasses: ['Email addresses', 'IP addresses', 'Passwords', 'Usernames'],
    isVerified: true,
    isSensitive: false,
    colour: '#9333ea',
  },
  {
    name: 'Rishtaloom',
    title: 'Rishtaloom',
    slug: 'rishtaloom',
    breachDate: '2023-07-25',
    addedDate: '2023-10-10T07:14:42Z',
    pwnCount: 761_034,
    description:
      'In July 2023, the matchmaking site Rishtaloom exposed member profiles, including names, dates of birth, religions, marital statuses, photos and phone numbers. This breach is flagged sensitive.',
    dataClasses: [
      'Dates of birth',
      'Email addresses',
      'Marital statuses',
      'Names',
      'Phone numbers',
      'Religions',
    ],
    isVerified: true,
    isSensitive: true,
    colour: '#be123c',
  },
  {
    name: 'Tiffinwala',
    title: 'Tiffinwala Club',
    slug: 'tiffinwala',
    breachDate: '2019-10-08',
    addedDate: '2020-01-14T13:27:18Z',
    pwnCount: 95_412,
    description:
      'In October 2019, the home-meal subscription service Tiffinwala Club was breached. Names, email addresses, phone numbers and delivery addresses were exposed.',
    dataClasses: ['Email addresses', 'Names', 'Phone numbers', 'Physical addresses'],
    isVerified: false,
    isSensitive: false,
    colour: '#ca8a04',
  },
  {
    name: 'Jobkarma',
    title: 'Jobkarma',
    slug: 'jobkarma',
    breachDate: '2021-11-29',
    addedDate: '2022-02-03T10:58:30Z',
    pwnCount: 5_630_221,
    description:
      'In November 2021, the job portal Jobkarma exposed resumes of job seekers. Names, email addresses, phone numbers, employers, job titles and education histories were included.',
    dataClasses: ['Education levels', 'Email addresses', 'Employers', 'Job titles', 'Names', 'Phone numbers'],
    isVerified: true,
    isSensitive: false,
    colour: '#2563eb',
  },
  {
    name: 'CricketKhel',
    title: 'Cricket Khel',
    slug: 'cricketkhel',
    breachDate: '2024-04-18',
    addedDate: '2024-06-30T16:05:44Z',
    pwnCount: 12_402_775,
    description:
      'In April 2024, the fantasy-cricket app Cricket Khel was breached. Usernames, email addresses, phone numbers, dates of birth and IP addresses were exposed, along with wallet balances.',
    dataClasses: ['Dates of birth', 'Email addresses', 'IP addresses', 'Phone numbers', 'Usernames'],
    isVerified: true,
    isSensitive: false,
    colour: '#15803d',
  },
  {
    name: 'Gyaanpeeth',
    title: 'Gyaanpeeth',
    slug: 'gyaanpeeth',
    breachDate: '2020-04-02',
    addedDate: '2020-08-19T09:36:12Z',
    pwnCount: 1_127_600,
    description:
      'In April 2020, the e-learning platform Gyaanpeeth exposed a database containing student names, email addresses, phone numbers, schools and bcrypt password hashes.',
    dataClasses: ['Email addresses', 'Names', 'Passwords', 'Phone numbers', 'Education levels'],
    isVerified: true,
    isSensitive: false,
    colour: '#0d9488',
  },
];

// biome-ignore format: compact word list
export const OSINT_SOURCES = [
  'Orbitly 2019', 'Zestmint 2023', 'RangoliReels 2022', 'Jobkarma 2021', 'Telecom combo list',
  'Loan-app scrape', 'Public directory', 'Marketplace listing',
] as const;

// biome-ignore format: one entry a line
export const REVIEW_PLACES = [
  { name: 'Shree Ganesh Misal House', kind: 'restaurant' },
  { name: 'Annapurna Pure Veg', kind: 'restaurant' },
  { name: 'Chai Tapri Junction', kind: 'cafe' },
  { name: 'Mehta Opticians', kind: 'shop' },
  { name: 'Balaji Mobile Repair', kind: 'shop' },
  { name: 'City Care Clinic', kind: 'clinic' },
  { name: 'Lakeview Garden', kind: 'park' },
  { name: 'Royal Tailors', kind: 'shop' },
  { name: 'Spice Route Biryani', kind: 'restaurant' },
  { name: 'Fitzone Gym', kind: 'gym' },
] as const;

export const REVIEW_TEXT: Record<(typeof REVIEW_PLACES)[number]['kind'], readonly string[]> = {
  restaurant: [
    'Food was tasty and service quick.',
    'Good taste but a bit crowded on weekends.',
    'Value for money thali.',
  ],
  cafe: ['Best cutting chai in the area!', 'Nice place to hang out with friends.'],
  shop: [
    'Genuine products, polite staff.',
    'Work done on time, reasonable price.',
    'Okay experience, had to wait long.',
  ],
  clinic: ['Doctor was patient and explained everything.', 'Clean and well managed.'],
  park: ['Good for morning walks.', 'Well maintained, kids enjoy it.'],
  gym: ['Good equipment, trainers are helpful.', 'Too crowded in the evening.'],
};

/** Sites the registered-site checker (holehe-style) probes. */
// biome-ignore format: compact word list
export const HOLEHE_SITES = [
  'instagram', 'twitter', 'spotify', 'amazon', 'pinterest', 'snapchat', 'github', 'gravatar', 'office365',
  'adobe', 'discord', 'duolingo', 'imgur', 'lastfm', 'quora', 'strava', 'tumblr', 'vimeo', 'wordpress',
  'zoho',
] as const;

/** Platforms the username / e-mail checker (socialscan-style) probes. */
// biome-ignore format: compact word list
export const SOCIALSCAN_PLATFORMS = [
  'Instagram', 'Twitter', 'GitHub', 'Tumblr', 'Lastfm', 'Snapchat', 'GitLab', 'Reddit', 'Yahoo', 'Pinterest',
  'Firefox', 'Spotify',
] as const;

/** Services the avatar checker (zehef-style) probes. */
export const AVATAR_SERVICES = ['Gravatar', 'Duolingo', 'Imgur', 'Flickr', 'Disqus'] as const;

/** Reserved domains every generated e-mail address and URL uses. */
export const RESERVED_DOMAINS = [
  'example.test',
  'example.com',
  'example.org',
  'example.net',
  'footprint.test',
] as const;

export function isReservedDomain(host: string): boolean {
  const h = host.toLowerCase();
  return RESERVED_DOMAINS.some((d) => h === d || h.endsWith(`.${d}`));
}

// ---------- companies (corporate intelligence) ----------

/** First words of invented company names. */
// biome-ignore format: compact word list
export const COMPANY_NAME_WORDS = [
  'Aakash', 'Bluepine', 'Chandan', 'Deccan', 'Emerald', 'Falcon', 'Ganga', 'Harit', 'Indus', 'Jaldhara',
  'Kesar', 'Lotus', 'Meghdoot', 'Nimbus', 'Orchid', 'Peacock', 'Quartz', 'Rangoli', 'Sahyadri', 'Tulsi',
  'Ujjwal', 'Vindhya', 'Westwind', 'Yamuna', 'Zenith',
];

/** Last words of invented company names, each with the NIC 2008 activity code it implies. */
export const COMPANY_SECTOR_WORDS = [
  ['Technologies', '62011'],
  ['Infotech', '62099'],
  ['Traders', '46900'],
  ['Logistics', '49231'],
  ['Foods', '10799'],
  ['Textiles', '13121'],
  ['Engineering', '28299'],
  ['Healthcare', '86100'],
  ['Solar Systems', '35105'],
  ['Media Works', '59111'],
] as const;

// ---------- the leak generator's lists ----------

/** `list` with `word` inserted after `after`. */
function withWordAfter(list: readonly string[], after: string, word: string): readonly string[] {
  const at = list.indexOf(after) + 1;
  return [...list.slice(0, at), word, ...list.slice(at)];
}

/**
 * Given names of the leak records' Indian men: MALE_FIRST with Rohan after Ravi. (FEMALE_FIRST, MIDDLE
 * and LAST serve the leak records as they are.) Rohan is not in MALE_FIRST itself because adding him
 * there would re-draw every persona of the providers.
 */
export const LEAK_MALE_FIRST: readonly string[] = withWordAfter(MALE_FIRST, 'Ravi', 'Rohan');

/**
 * Given names and surnames from outside India, for the leak records' international people. Some carry
 * accents (José, Zoë, Ångström) so that accent-insensitive name search is exercised.
 */
// biome-ignore format: compact word list
export const INTL_MALE_FIRST = [
  'José', 'François', 'Jürgen', 'Søren', 'Björn', 'Tomás', 'Łukasz', 'Noah', 'Liam', 'Lucas', 'Mateo',
  'Ethan', 'Oliver', 'Jack', 'Leo', 'Mehmet', 'Hiroshi', 'Kwame', 'Andrés', 'Émile', 'Nils', 'Paolo',
] as const;

// biome-ignore format: compact word list
export const INTL_FEMALE_FIRST = [
  'Zoë', 'María', 'Chloé', 'Renée', 'Anaïs', 'Noémie', 'Inés', 'Sofía', 'Léa', 'Emma', 'Olivia', 'Mia',
  'Amelia', 'Ava', 'Hannah', 'Isabella', 'Elif', 'Yuki', 'Amara', 'Ingrid', 'Małgorzata', 'Giulia',
] as const;

// biome-ignore format: compact word list
export const INTL_LAST = [
  'Álvarez', 'García', 'Müller', 'Ångström', 'Núñez', 'Martínez', 'Dvořák', 'Lefèvre', 'Schäfer', 'Øyen',
  'Smith', 'Johnson', 'Brown', 'Williams', 'Taylor', 'Dubois', 'Rossi', 'Nowak', 'Kowalski', 'Jensen',
  'Nguyen', 'Kim', 'Tanaka', 'Okafor', 'Mensah', "O'Brien", 'Silva', 'Costa', 'Pereira', 'Yılmaz',
  'Gonçalves', 'Åberg',
] as const;

export interface LeakCity {
  city: string;
  state: string;
  /** Telecom circle, as a subscriber export names it. */
  circle: string;
  pinPrefix: string;
  localities: readonly string[];
}

/**
 * The leak records' cities: twelve of CITIES, in the order the leak generator picks from, each with its
 * telecom circle and the one locality of CITIES its records do not use.
 */
// biome-ignore format: one entry a line
const LEAK_CITY_TABLE: ReadonlyArray<readonly [city: string, circle: string, unused: string]> = [
  ['Pune', 'Maharashtra & Goa', 'Shivajinagar'],
  ['Mumbai', 'Mumbai', 'Goregaon East'],
  ['New Delhi', 'Delhi NCR', 'Mayur Vihar Phase 1'],
  ['Bengaluru', 'Karnataka', 'Malleshwaram'],
  ['Hyderabad', 'Andhra Pradesh & Telangana', 'Begumpet'],
  ['Chennai', 'Tamil Nadu', 'Tambaram'],
  ['Kolkata', 'Kolkata', 'Gariahat'],
  ['Ahmedabad', 'Gujarat', 'Chandkheda'],
  ['Jaipur', 'Rajasthan', 'Raja Park'],
  ['Lucknow', 'UP East', 'Alambagh'],
  ['Kochi', 'Kerala', 'Fort Kochi'],
  ['Indore', 'Madhya Pradesh', 'Sudama Nagar'],
];

export const LEAK_CITIES: readonly LeakCity[] = LEAK_CITY_TABLE.map(([name, circle, unused]) => {
  const city = CITIES.find((c) => c.city === name);
  if (!city) throw new Error(`LEAK_CITIES: ${name} is not in CITIES`);
  const localities = city.localities.filter((locality) => locality !== unused);
  return { city: city.city, state: city.state, circle, pinPrefix: city.pinPrefix, localities };
});

/** Housing societies of the leak records' addresses. */
// biome-ignore format: compact word list
export const LEAK_SOCIETIES = [
  'Shanti Apartments', 'Green Valley Residency', 'Sai Krupa Society', 'Lotus Heights', 'Sunrise Towers',
  'Ganga Vihar', 'Palm Grove', 'Nandanvan Co-op Housing Society', 'Om Sai Residency', 'Gulmohar Park',
  'Kaveri Enclave', 'Shivneri Complex',
] as const;

/** House-number formats of the leak records' addresses: `{n}` a flat number, `{s}` a short number. */
export const LEAK_HOUSE_FORMATS = [
  'Flat {n}',
  'House No. {s}',
  'B-{n}',
  'Plot {s}',
  'A-{n}',
  'Flat No. {n}',
] as const;

/** Cities of the leak records' international people. */
// biome-ignore format: one entry a line
export const INTL_CITIES: readonly { city: string; country: string }[] = [
  { city: 'Lisbon', country: 'Portugal' }, { city: 'Madrid', country: 'Spain' }, { city: 'Berlin', country: 'Germany' },
  { city: 'Stockholm', country: 'Sweden' }, { city: 'Paris', country: 'France' }, { city: 'London', country: 'United Kingdom' },
  { city: 'Toronto', country: 'Canada' }, { city: 'Austin', country: 'United States' }, { city: 'Warsaw', country: 'Poland' },
  { city: 'Oslo', country: 'Norway' }, { city: 'Dubai', country: 'United Arab Emirates' }, { city: 'Singapore', country: 'Singapore' },
];

/** E-mail domains of the leak records: reserved names only (RFC 2606 / 6761), all under RESERVED_DOMAINS. */
export const LEAK_EMAIL_DOMAINS = [
  'example.com',
  'example.org',
  'example.net',
  'example.test',
  'mail.example.com',
  'inbox.example.net',
  'post.example.org',
] as const;

/** Documentation address blocks (RFC 5737), for the leak records' IP addresses. */
export const DOCUMENTATION_IP_PREFIXES = ['192.0.2.', '198.51.100.', '203.0.113.'] as const;

/** Newsletter lists of the leak records' newsletter source. */
export const NEWSLETTER_LISTS = [
  'tech-weekly',
  'deals-daily',
  'cricket-scores',
  'recipes',
  'travel-offers',
] as const;
