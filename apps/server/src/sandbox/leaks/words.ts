/**
 * Word lists for the synthetic leak sandbox. Given names and surnames are common ones combined at
 * random, so no generated record is a real person; breached services, housing societies and every
 * e-mail domain are invented or reserved (example.* / .test). Some names carry accents (José, Zoë,
 * Ångström) so that accent-insensitive name search is exercised.
 */

// biome-ignore format: compact word list
export const INDIAN_MALE = [
  'Aarav', 'Aditya', 'Akash', 'Amit', 'Anand', 'Anil', 'Arjun', 'Ashok', 'Deepak', 'Dev', 'Dhruv', 'Farhan',
  'Gaurav', 'Harish', 'Imran', 'Ishaan', 'Jatin', 'Karan', 'Kunal', 'Manoj', 'Mohit', 'Naveen', 'Nikhil',
  'Pranav', 'Rahul', 'Rajesh', 'Rakesh', 'Ravi', 'Rohan', 'Rohit', 'Sachin', 'Sameer', 'Sandeep', 'Sanjay',
  'Siddharth', 'Suresh', 'Tarun', 'Varun', 'Vijay', 'Vikram', 'Vivek', 'Yash', 'Zubin',
] as const;

// biome-ignore format: compact word list
export const INDIAN_FEMALE = [
  'Aditi', 'Aisha', 'Ananya', 'Anjali', 'Bhavna', 'Deepa', 'Divya', 'Fatima', 'Gayatri', 'Ishita', 'Jyoti',
  'Kavya', 'Kiran', 'Lakshmi', 'Meera', 'Megha', 'Neha', 'Nisha', 'Pooja', 'Priya', 'Radhika', 'Rekha',
  'Riya', 'Sakshi', 'Sana', 'Shreya', 'Simran', 'Sneha', 'Sunita', 'Swati', 'Tanvi', 'Trisha', 'Vandana',
  'Zoya',
] as const;

/** Middle names are usually the father's given name (as on Maharashtra / Gujarat documents). */
// biome-ignore format: compact word list
export const INDIAN_MIDDLE = [
  'Kumar', 'Prakash', 'Ramesh', 'Suresh', 'Mahesh', 'Dinesh', 'Vinod', 'Ashok', 'Rajendra', 'Mohan',
  'Shankar', 'Gopal', 'Narayan', 'Krishna', 'Vasant', 'Arvind',
] as const;

// biome-ignore format: compact word list
export const INDIAN_LAST = [
  'Agarwal', 'Bhat', 'Banerjee', 'Chatterjee', 'Chauhan', 'Das', 'Desai', 'Deshmukh', 'Gupta', 'Iyer',
  'Jain', 'Joshi', 'Kapoor', 'Khan', 'Kulkarni', 'Kumar', 'Malhotra', 'Menon', 'Mishra', 'Nair', 'Patel',
  'Pillai', 'Rao', 'Reddy', 'Saxena', 'Shah', 'Sharma', 'Shetty', 'Singh', 'Sinha', 'Srivastava', 'Thakur',
  'Trivedi', 'Verma', 'Yadav', 'Qureshi', 'Fernandes', 'Gill',
] as const;

// biome-ignore format: compact word list
export const INTL_MALE = [
  'José', 'François', 'Jürgen', 'Søren', 'Björn', 'Tomás', 'Łukasz', 'Noah', 'Liam', 'Lucas', 'Mateo',
  'Ethan', 'Oliver', 'Jack', 'Leo', 'Mehmet', 'Hiroshi', 'Kwame', 'Andrés', 'Émile', 'Nils', 'Paolo',
] as const;

// biome-ignore format: compact word list
export const INTL_FEMALE = [
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

export interface IndianCity {
  city: string;
  state: string;
  /** Telecom circle, as a subscriber export names it. */
  circle: string;
  pinPrefix: string;
  localities: readonly string[];
}

// biome-ignore format: one entry a line
export const INDIAN_CITIES: readonly IndianCity[] = [
  { city: 'Pune', state: 'Maharashtra', circle: 'Maharashtra & Goa', pinPrefix: '411', localities: ['Kothrud', 'Aundh', 'Baner', 'Hadapsar', 'Viman Nagar', 'Wakad'] },
  { city: 'Mumbai', state: 'Maharashtra', circle: 'Mumbai', pinPrefix: '400', localities: ['Andheri West', 'Borivali East', 'Chembur', 'Dadar', 'Malad West', 'Powai'] },
  { city: 'New Delhi', state: 'Delhi', circle: 'Delhi NCR', pinPrefix: '110', localities: ['Lajpat Nagar', 'Saket', 'Dwarka Sector 10', 'Rohini Sector 7', 'Karol Bagh'] },
  { city: 'Bengaluru', state: 'Karnataka', circle: 'Karnataka', pinPrefix: '560', localities: ['Indiranagar', 'Koramangala 5th Block', 'Jayanagar 4th Block', 'Whitefield', 'HSR Layout'] },
  { city: 'Hyderabad', state: 'Telangana', circle: 'Andhra Pradesh & Telangana', pinPrefix: '500', localities: ['Banjara Hills', 'Kukatpally', 'Madhapur', 'Gachibowli', 'Secunderabad'] },
  { city: 'Chennai', state: 'Tamil Nadu', circle: 'Tamil Nadu', pinPrefix: '600', localities: ['Adyar', 'T. Nagar', 'Velachery', 'Anna Nagar', 'Mylapore'] },
  { city: 'Kolkata', state: 'West Bengal', circle: 'Kolkata', pinPrefix: '700', localities: ['Salt Lake Sector V', 'Ballygunge', 'Behala', 'New Town', 'Dum Dum'] },
  { city: 'Ahmedabad', state: 'Gujarat', circle: 'Gujarat', pinPrefix: '380', localities: ['Navrangpura', 'Satellite', 'Maninagar', 'Bodakdev', 'Vastrapur'] },
  { city: 'Jaipur', state: 'Rajasthan', circle: 'Rajasthan', pinPrefix: '302', localities: ['Malviya Nagar', 'Vaishali Nagar', 'Mansarovar', 'C-Scheme'] },
  { city: 'Lucknow', state: 'Uttar Pradesh', circle: 'UP East', pinPrefix: '226', localities: ['Gomti Nagar', 'Aliganj', 'Hazratganj', 'Indira Nagar'] },
  { city: 'Kochi', state: 'Kerala', circle: 'Kerala', pinPrefix: '682', localities: ['Kakkanad', 'Edappally', 'Vyttila', 'Kaloor'] },
  { city: 'Indore', state: 'Madhya Pradesh', circle: 'Madhya Pradesh', pinPrefix: '452', localities: ['Vijay Nagar', 'Palasia', 'Rajendra Nagar', 'Bhawarkua'] },
];

// biome-ignore format: compact word list
export const SOCIETIES = [
  'Shanti Apartments', 'Green Valley Residency', 'Sai Krupa Society', 'Lotus Heights', 'Sunrise Towers',
  'Ganga Vihar', 'Palm Grove', 'Nandanvan Co-op Housing Society', 'Om Sai Residency', 'Gulmohar Park',
  'Kaveri Enclave', 'Shivneri Complex',
] as const;

export const HOUSE_FORMATS = [
  'Flat {n}',
  'House No. {s}',
  'B-{n}',
  'Plot {s}',
  'A-{n}',
  'Flat No. {n}',
] as const;

// biome-ignore format: one entry a line
export const INTL_CITIES: readonly { city: string; country: string }[] = [
  { city: 'Lisbon', country: 'Portugal' }, { city: 'Madrid', country: 'Spain' }, { city: 'Berlin', country: 'Germany' },
  { city: 'Stockholm', country: 'Sweden' }, { city: 'Paris', country: 'France' }, { city: 'London', country: 'United Kingdom' },
  { city: 'Toronto', country: 'Canada' }, { city: 'Austin', country: 'United States' }, { city: 'Warsaw', country: 'Poland' },
  { city: 'Oslo', country: 'Norway' }, { city: 'Dubai', country: 'United Arab Emirates' }, { city: 'Singapore', country: 'Singapore' },
];

/** Every e-mail domain the sandbox uses: reserved names only (RFC 2606 / 6761). */
export const EMAIL_DOMAINS = [
  'example.com',
  'example.org',
  'example.net',
  'example.test',
  'mail.example.com',
  'inbox.example.net',
  'post.example.org',
] as const;

/** Documentation address blocks (RFC 5737). */
export const IP_PREFIXES = ['192.0.2.', '198.51.100.', '203.0.113.'] as const;

export const NEWSLETTER_LISTS = [
  'tech-weekly',
  'deals-daily',
  'cricket-scores',
  'recipes',
  'travel-offers',
] as const;
