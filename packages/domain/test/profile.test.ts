import { describe, expect, it } from 'vitest';
import {
  type EmailLookupData,
  extraRecords,
  identityProofLabel,
  isEmailResultEmpty,
  isPhoneResultEmpty,
  isProfileEmpty,
  isSafeImageUrl,
  looksLikeImage,
  mergeEmailProfile,
  mergePhoneProfile,
  type PhoneLookupResponse,
  PROFILE_SECTIONS,
  type ProfileEntry,
  phoneHighlights,
} from '../src/index.ts';

/** Untyped on purpose: the malformed-input tests put wrong types where the payload types forbid them. */
const phone = (value: unknown) => value as Partial<PhoneLookupResponse>;
const email = (value: unknown) => value as Partial<EmailLookupData>;

const pairs = (entries: ProfileEntry[]) =>
  entries.map((e) => (e.key ? [e.value, e.source, e.key] : [e.value, e.source]));

const richPhone = (): Partial<PhoneLookupResponse> => ({
  wpData: {
    pushname: 'Ravi K',
    number: '919876543210',
    isUser: true,
    isBusiness: true,
    profilePic: 'https://pics.example.test/wa.jpg',
    countryCode: 'IN',
  },
  hlrData: {
    msisdn: '+91 98765 43210',
    imsi: '404450000000001',
    timestamp: '2024-05-01T10:00:00Z',
    original_country_name: 'India',
    original_country_code: 'IN',
    original_network_name: 'Airtel',
    ported_network_name: 'Jio',
  },
  tcData: {
    data: {
      basicInfo: {
        name: { fullName: 'Ravi Kumar', altName: 'Ravi Bhai' },
        gender: 'MALE',
        jobTitle: 'Engineer',
      },
      addressInfo: { address: 'Pune, Maharashtra', countryCode: 'IN' },
      phoneInfo: { number: '09876543210', carrier: 'Jio' },
    },
  },
  allData: {
    callapp: { name: 'Ravi Kumar' },
    viewcaller: [{ name: 'Ravi K.' }, { name: 'Ravi Kumar Office' }],
    eyecon: 'R Kumar',
    tcData: { number: '9876543210', provieder: 'Reliance Jio' },
  },
  smData: { response: { name: 'Ravi Kumar', fb: 'https://facebook.com/ravi.k', is_spam: true } },
  osintData: {
    data: [
      {
        source: 'old-forum',
        name: 'Ravi Kumar',
        username: 'ravik',
        phone: '9876543210',
        phone_secondary: '9123456789',
        email: 'ravi@example.test',
        email_secondary: 'rk@example.test',
        address: '12 MG Road, Pune',
        age: 34,
        gender: 'male',
        dob: '1990-01-02',
        image: 'https://pics.example.test/osint.png',
        city: 'Pune',
      },
    ],
  },
  sKData: {
    success: true,
    data: {
      client_id: 'prefill_123',
      mobile: '9876543210',
      details: {
        name: 'RAVI KUMAR',
        personal_info: {
          full_name: 'Ravi Kumar Sharma',
          dob: '1990-01-02',
          age: 34,
          gender: 'Male',
          total_income: '500000',
          occupation: 'Salaried',
        },
        phone_info: [{ number: '+91 98765-43210' }, { number: '9000000001' }],
        email_info: [{ email_address: 'ravi.gov@example.test' }],
        identity_info: {
          pan_number: [{ id_number: 'ABCDE1234F' }],
          aadhaar_number: [{ id_number: 'XXXX XXXX 1234' }],
          voter_id: [{ id_number: 'ABC1234567' }],
          passport_number: [{ id_number: 'K1234567' }],
          driving_license: [{ id_number: 'MH1220110012345' }],
          ration_card: [{ id_number: 'RC998877' }],
          nrega_card: [{ id_number: 'NR-1' }],
        },
        address_info: [
          { address: '12 MG Road, Pune', state: 'Maharashtra', postal: '411001', type: 'permanent' },
          {
            address: 'Flat 4, Baner, Pune, Maharashtra',
            state: 'Maharashtra',
            postal: '411045',
            type: 'current',
          },
        ],
      },
    },
  },
  suData: {
    data: { name: 'Ravi Kumar Sharma', mobile_number: '9876543210', upi_id: ['ravi@okbank', 'ravik@upi'] },
  },
  sbData: {
    data: {
      name: 'RAVI KUMAR SHARMA',
      bank_account_no: '001122334455',
      bank_ifsc: 'HDFC0001234',
      bank_details: { bank_name: 'HDFC Bank', branch: 'Baner', city: 'Pune', client_id: 'x' },
    },
  },
  srData: { data: { rc_number: ['MH12AB1234', 'MH12CD5678'] } },
  telData: {
    first_name: 'Ravi',
    last_name: 'Kumar',
    username: 'ravi_k',
    found: true,
    profile_photo: 'https://pics.example.test/tg.webp',
  },
  errors: {},
  credits: 10,
});

describe('mergePhoneProfile — a rich answer from every source', () => {
  const profile = mergePhoneProfile(richPhone());

  // Education, positions and skills come only from the e-mail lookup's LinkedIn-style source.
  const emailOnly = new Set(['qualifications', 'experience', 'skills']);

  it('fills every profile section a phone source can fill, and the images', () => {
    for (const { key } of PROFILE_SECTIONS) {
      if (emailOnly.has(key)) expect(profile[key], key).toEqual([]);
      else expect(profile[key].length, key).toBeGreaterThan(0);
    }
    expect(profile.images.length).toBeGreaterThan(0);
  });

  it('keeps names from each source, labelled, in source order', () => {
    expect(pairs(profile.names)).toEqual([
      ['Ravi K', 'WhatsApp'],
      ['Ravi Kumar', 'Caller ID'],
      ['Ravi Bhai', 'Caller ID'],
      ['Ravi Kumar', 'Caller Apps'],
      ['Ravi K.', 'Caller Apps'],
      ['Ravi Kumar Office', 'Caller Apps'],
      ['R Kumar', 'Caller Apps'],
      ['Ravi Kumar', 'Social Media'],
      ['Ravi Kumar', 'OSINT'],
      ['RAVI KUMAR', 'Gov'],
      ['Ravi Kumar Sharma', 'Gov'],
      ['Ravi Kumar', 'Telegram'],
    ]);
  });

  it('folds phone numbers per source on their last 10 digits', () => {
    expect(pairs(profile.phones)).toEqual([
      ['919876543210', 'WhatsApp'],
      ['+91 98765 43210', 'ISP Response'],
      ['09876543210', 'Caller ID'],
      ['9876543210', 'Caller Apps'],
      ['9876543210', 'OSINT'],
      ['9123456789', 'OSINT'],
      ['9876543210', 'Gov'],
      ['9000000001', 'Gov'],
    ]);
  });

  it('labels identity proofs, known and unknown kinds', () => {
    expect(pairs(profile.identityProofs)).toEqual([
      ['ABCDE1234F', 'Gov', 'PAN Number'],
      ['XXXX XXXX 1234', 'Gov', 'Aadhaar'],
      ['ABC1234567', 'Gov', 'Voter ID'],
      ['K1234567', 'Gov', 'Passport Number'],
      ['MH1220110012345', 'Gov', 'Driving License Number'],
      ['RC998877', 'Gov', 'Ration Card Number'],
      ['NR-1', 'Gov', 'Nrega Card'],
    ]);
  });

  it('joins verified addresses without repeating the state, keyed by type', () => {
    expect(pairs(profile.verifiedAddresses)).toEqual([
      ['12 MG Road, Pune, Maharashtra, 411001', 'Gov', 'permanent'],
      ['Flat 4, Baner, Pune, Maharashtra, 411045', 'Gov', 'current'],
    ]);
  });

  it('reads basic info from caller id, osint and the KYC bundle with their keys', () => {
    expect(pairs(profile.basicInfo)).toEqual([
      ['MALE', 'Caller ID', 'Gender'],
      ['34', 'OSINT', 'Age'],
      ['male', 'OSINT', 'Gender'],
      ['1990-01-02', 'OSINT', 'Date of Birth'],
      ['1990-01-02', 'Gov', 'Date of Birth'],
      ['34', 'Gov', 'Age'],
      ['Male', 'Gov', 'Gender'],
      ['500000', 'Gov', 'Income'],
      ['Salaried', 'Gov', 'Occupation'],
    ]);
  });

  it('fills bank, UPI, RC, e-mail, username and job sections', () => {
    expect(pairs(profile.bankDetails)).toEqual([
      ['001122334455', 'Gov', 'Account Number'],
      ['HDFC0001234', 'Gov', 'IFSC'],
      ['HDFC Bank', 'Gov', 'Bank Name'],
      ['Baner', 'Gov', 'Branch'],
      ['Pune', 'Gov', 'City'],
    ]);
    expect(pairs(profile.upiIds)).toEqual([
      ['ravi@okbank', 'Gov'],
      ['ravik@upi', 'Gov'],
    ]);
    expect(pairs(profile.rcNumbers)).toEqual([
      ['MH12AB1234', 'Gov'],
      ['MH12CD5678', 'Gov'],
    ]);
    expect(pairs(profile.emails)).toEqual([
      ['ravi@example.test', 'OSINT'],
      ['rk@example.test', 'OSINT'],
      ['ravi.gov@example.test', 'Gov'],
    ]);
    expect(pairs(profile.usernames)).toEqual([
      ['ravik', 'OSINT'],
      ['ravi_k', 'Telegram'],
    ]);
    expect(pairs(profile.jobProfiles)).toEqual([
      ['Engineer', 'Caller ID'],
      ['Salaried', 'Gov'],
    ]);
  });

  it('reads ISP, caller id and caller-app network data', () => {
    expect(pairs(profile.carriers)).toEqual([
      ['Airtel', 'ISP Response'],
      ['Jio', 'ISP Response', 'Ported'],
      ['Jio', 'Caller ID'],
      ['Reliance Jio', 'Caller Apps'],
    ]);
    expect(pairs(profile.countryCodes)).toEqual([
      ['IN', 'WhatsApp'],
      ['IN', 'ISP Response'],
      ['IN', 'Caller ID'],
    ]);
    expect(pairs(profile.locations)).toEqual([
      ['India', 'ISP Response'],
      ['Pune, Maharashtra', 'Caller ID'],
      ['12 MG Road, Pune', 'OSINT'],
    ]);
    expect(pairs(profile.lastUpdated)).toEqual([['01 May 2024, 15:30 IST', 'ISP Response']]);
  });

  it('lists internet presence and images with their sources', () => {
    expect(profile.internetPresence).toEqual([
      { platform: 'WhatsApp', active: true, source: 'WhatsApp' },
      { platform: 'Facebook', active: true, url: 'https://facebook.com/ravi.k', source: 'Social Media' },
      { platform: 'Telegram', active: true, url: 'https://t.me/ravi_k', source: 'Telegram' },
    ]);
    expect(profile.images).toEqual([
      { url: 'https://pics.example.test/wa.jpg', source: 'WhatsApp' },
      { url: 'https://pics.example.test/osint.png', source: 'OSINT' },
      { url: 'https://pics.example.test/tg.webp', source: 'Telegram' },
    ]);
  });

  it('is not empty', () => {
    expect(isPhoneResultEmpty(richPhone())).toBe(false);
  });
});

describe('mergePhoneProfile — sparse and conflicting answers', () => {
  it('reads an ISP answer sent as a JSON string and nothing else', () => {
    const hlr = JSON.stringify({
      msisdn: '919876543210',
      timestamp: '2024-05-01',
      original_network_name: 'Vodafone Idea',
      ported_network_name: 'Vodafone Idea',
      original_country_name: 'India',
      original_country_code: 'IN',
      imsi: '40420',
    });
    const profile = mergePhoneProfile({ hlrData: hlr });
    expect(pairs(profile.phones)).toEqual([['919876543210', 'ISP Response']]);
    // Not ported: the same network is not listed twice.
    expect(pairs(profile.carriers)).toEqual([['Vodafone Idea', 'ISP Response']]);
    expect(pairs(profile.countryCodes)).toEqual([['IN', 'ISP Response']]);
    expect(pairs(profile.locations)).toEqual([['India', 'ISP Response']]);
    expect(pairs(profile.lastUpdated)).toEqual([['01 May 2024', 'ISP Response']]);
    expect(profile.names).toEqual([]);
    expect(profile.internetPresence).toEqual([]);
    expect(phoneHighlights({ hlrData: hlr })).toEqual({
      markedAsSpam: false,
      whatsappBusiness: false,
      imsi: '40420',
      phoneStatus: 'Active',
      answered: { social: false, whatsapp: false, isp: true },
    });
    expect(isPhoneResultEmpty({ hlrData: hlr })).toBe(false);
  });

  it('calls a flag whose source never answered not known, never "No" or "Inactive"', () => {
    // Only the government sources answered (e.g. the sandbox off, no ISP, messaging or social vendor).
    const highlights = phoneHighlights({ sKData: { data: null } });
    expect(highlights.phoneStatus).toBe('Unknown');
    expect(highlights.answered).toEqual({ social: false, whatsapp: false, isp: false });
  });

  it('keeps different names from different sources', () => {
    const profile = mergePhoneProfile({
      wpData: { pushname: 'Asha' },
      smData: { response: { name: 'Meera' } },
    });
    expect(pairs(profile.names)).toEqual([
      ['Asha', 'WhatsApp'],
      ['Meera', 'Social Media'],
    ]);
  });

  it('keeps the same name once per source so corroboration shows', () => {
    const profile = mergePhoneProfile({
      wpData: { pushname: 'Asha Rao' },
      smData: { response: { name: '  asha   RAO ' } },
    });
    expect(pairs(profile.names)).toEqual([
      ['Asha Rao', 'WhatsApp'],
      ['asha RAO', 'Social Media'],
    ]);
  });

  it('folds the same name twice from one source, ignoring case and spacing', () => {
    const profile = mergePhoneProfile({
      allData: { callapp: { name: 'Asha Rao' }, viewcaller: [{ name: 'ASHA  RAO' }], eyecon: ' asha rao ' },
    });
    expect(pairs(profile.names)).toEqual([['Asha Rao', 'Caller Apps']]);
  });

  it('keeps the same value under different keys apart', () => {
    const profile = mergePhoneProfile({
      osintData: { data: [{ age: '30' }, { age: 30, dob: '30' }] },
    });
    expect(pairs(profile.basicInfo)).toEqual([
      ['30', 'OSINT', 'Age'],
      ['30', 'OSINT', 'Date of Birth'],
    ]);
  });

  it('marks Telegram and WhatsApp inactive on a negative answer, without counting it as a finding', () => {
    const response = phone({ telData: { found: false, first_name: 'Ghost' }, wpData: { isUser: false } });
    const profile = mergePhoneProfile(response);
    expect(profile.internetPresence).toEqual([
      { platform: 'WhatsApp', active: false, source: 'WhatsApp' },
      { platform: 'Telegram', active: false, source: 'Telegram' },
    ]);
    expect(profile.names).toEqual([]);
    expect(isProfileEmpty(profile)).toBe(true);
    expect(isPhoneResultEmpty(response)).toBe(true);
  });

  it('accepts a single RC number and UPI id given as strings', () => {
    const profile = mergePhoneProfile(
      phone({ srData: { data: { rc_number: 'KA01AB0001' } }, suData: { data: { upi_id: 'x@upi' } } }),
    );
    expect(pairs(profile.rcNumbers)).toEqual([['KA01AB0001', 'Gov']]);
    expect(pairs(profile.upiIds)).toEqual([['x@upi', 'Gov']]);
  });
});

describe('malformed input never throws', () => {
  it('ignores a broken ISP string, an array for caller id and a string for osint data', () => {
    const response = phone({
      hlrData: '{not json',
      tcData: [],
      osintData: { data: 'x' },
      wpData: { pushname: 'Kept' },
    });
    const profile = mergePhoneProfile(response);
    expect(pairs(profile.names)).toEqual([['Kept', 'WhatsApp']]);
    expect(profile.phones).toEqual([]);
    expect(phoneHighlights(response)).toEqual({
      markedAsSpam: false,
      whatsappBusiness: false,
      phoneStatus: 'Inactive',
      answered: { social: false, whatsapp: true, isp: true },
    });
    expect(extraRecords(response.osintData)).toEqual([]);
  });

  it('reads identity ids given as a bare string instead of a list', () => {
    const profile = mergePhoneProfile(
      phone({ sKData: { data: { details: { identity_info: { pan_number: 'ABCDE1234F', voter_id: 42 } } } } }),
    );
    expect(pairs(profile.identityProofs)).toEqual([
      ['ABCDE1234F', 'Gov', 'PAN Number'],
      ['42', 'Gov', 'Voter ID'],
    ]);
  });

  it('turns numbers into text and drops placeholders, nulls and objects', () => {
    const profile = mergePhoneProfile(
      phone({
        wpData: { pushname: 12345, number: 919876543210, countryCode: null, profilePic: 7 },
        smData: { response: { name: 'N/A', fb: null, is_spam: 'yes' } },
        allData: {
          callapp: { name: { first: 'x' } },
          viewcaller: [null, 'x', { name: '-' }],
          eyecon: 'null',
        },
        tcData: { data: { basicInfo: { name: 'flat string', gender: 'undefined' } } },
        telData: { first_name: '  ', last_name: null, username: ['a'] },
      }),
    );
    expect(pairs(profile.names)).toEqual([['12345', 'WhatsApp']]);
    expect(pairs(profile.phones)).toEqual([['919876543210', 'WhatsApp']]);
    expect(profile.images).toEqual([]);
    expect(profile.basicInfo).toEqual([]);
    expect(profile.internetPresence).toEqual([{ platform: 'WhatsApp', active: true, source: 'WhatsApp' }]);
    expect(phoneHighlights(phone({ smData: { response: { is_spam: 'yes' } } })).markedAsSpam).toBe(false);
  });

  it('does not reach prototype properties through odd keys', () => {
    const profile = mergePhoneProfile(
      phone({ sKData: { data: { details: JSON.parse('{"identity_info": {"constructor": ["Z9"]}}') } } }),
    );
    expect(pairs(profile.identityProofs)).toEqual([['Z9', 'Gov', 'Constructor']]);
  });

  const junk: unknown[] = [null, undefined, 0, 42, 'x', '', true, [], [null, 1, 'x'], {}, { data: 'x' }];

  it('survives junk in place of every source and every nested field', () => {
    const paths = leafPaths(richPhone());
    expect(paths.length).toBeGreaterThan(50);
    for (const path of paths) {
      for (const value of junk) {
        const response = withValueAt(richPhone(), path, value);
        expect(() => mergePhoneProfile(response), path.join('.')).not.toThrow();
        expect(() => phoneHighlights(response)).not.toThrow();
        expect(() => isPhoneResultEmpty(response)).not.toThrow();
        expect(() => extraRecords(response.osintData)).not.toThrow();
      }
    }
    // Hundreds of mangled answers: seconds on a loaded machine, more than the default 5 s.
  }, 30_000);

  it('survives junk in place of every e-mail source and nested field', () => {
    const paths = leafPaths(richEmail());
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      for (const value of junk) {
        const data = withValueAt(richEmail(), path, value);
        expect(() => mergeEmailProfile(data), path.join('.')).not.toThrow();
        expect(() => isEmailResultEmpty(data)).not.toThrow();
      }
    }
  });

  it('survives a missing or non-object answer', () => {
    for (const value of [null, undefined, 'x', 5, []]) {
      expect(isProfileEmpty(mergePhoneProfile(phone(value)))).toBe(true);
      expect(isProfileEmpty(mergeEmailProfile(email(value)))).toBe(true);
      expect(isPhoneResultEmpty(phone(value))).toBe(true);
      expect(isEmailResultEmpty(email(value))).toBe(true);
      // No ISP answer at all: the status is not known, not "Inactive".
      expect(phoneHighlights(phone(value)).phoneStatus).toBe('Unknown');
      expect(extraRecords(value as never)).toEqual([]);
    }
  });
});

describe('identity proof labels', () => {
  it.each([
    ['pan_number', 'PAN Number'],
    ['aadhaar_number', 'Aadhaar'],
    ['voter_id', 'Voter ID'],
    ['passport_number', 'Passport Number'],
    ['driving_license', 'Driving License Number'],
    ['ration_card', 'Ration Card Number'],
    ['nrega_card', 'Nrega Card'],
    ['gas_connection_id', 'Gas Connection ID'],
  ])('%s → %s', (kind, label) => {
    expect(identityProofLabel(kind)).toBe(label);
  });
});

describe('phoneHighlights', () => {
  it('reads spam, business account, IMSI, status and the Facebook link', () => {
    expect(phoneHighlights(richPhone())).toEqual({
      markedAsSpam: true,
      whatsappBusiness: true,
      imsi: '404450000000001',
      phoneStatus: 'Active',
      facebookUrl: 'https://facebook.com/ravi.k',
      answered: { social: true, whatsapp: true, isp: true },
    });
  });

  it('is Inactive without an ISP timestamp and refuses non-http Facebook links', () => {
    const response = phone({
      hlrData: { imsi: '1', timestamp: ' ' },
      smData: { response: { fb: 'javascript:alert(1)', is_spam: false } },
      wpData: { isBusiness: false },
    });
    expect(phoneHighlights(response)).toEqual({
      markedAsSpam: false,
      whatsappBusiness: false,
      imsi: '1',
      phoneStatus: 'Inactive',
      answered: { social: true, whatsapp: true, isp: true },
    });
    // The account still exists, it just has no link the page may open.
    expect(mergePhoneProfile(response).internetPresence).toEqual([
      { platform: 'Facebook', active: true, source: 'Social Media' },
    ]);
  });

  it('reads the ISP status from a JSON string', () => {
    expect(phoneHighlights({ hlrData: '{"timestamp":"2024-01-01"}' }).phoneStatus).toBe('Active');
  });
});

describe('isPhoneResultEmpty', () => {
  it('is empty when no source said anything', () => {
    expect(isPhoneResultEmpty({ errors: { wpData: 'timeout' }, credits: 3 })).toBe(true);
    expect(
      isPhoneResultEmpty({ wpData: {}, hlrData: '{}', tcData: { data: null }, osintData: { data: [] } }),
    ).toBe(true);
  });

  it('is not empty when only osint data has records with fields outside the profile', () => {
    const response = phone({ osintData: { data: [{ breach: 'forum-2019', password_hint: 'cat' }] } });
    expect(isProfileEmpty(mergePhoneProfile(response))).toBe(true);
    expect(isPhoneResultEmpty(response)).toBe(false);
  });

  it('is not empty with a single found value', () => {
    expect(isPhoneResultEmpty({ srData: { data: { rc_number: 'MH01AA0001' } } })).toBe(false);
  });
});

const richEmail = (): Partial<EmailLookupData> => ({
  emailData: {
    success: true,
    PROFILE_CONTAINER: {
      profile: {
        personId: '1234567890',
        names: [{ fullname: 'Meera Iyer' }, { firstName: 'Meera', lastName: 'I.' }],
        emails: [{ value: 'meera@example.test' }],
        profilePhotos: [
          { url: 'https://photos.example.test/default.png', isDefault: true },
          { url: 'https://photos.example.test/meera.jpg', isDefault: false },
        ],
        sourceIds: { lastUpdated: '2024-03-01 10:00:00' },
      },
    },
    maps_result: {
      reviews: [
        { place_name: 'Cafe Blue', address: 'MG Road, Bengaluru', latitude: 12.97, longitude: 77.6 },
        { place_name: 'No Coordinates Diner', address: 'Somewhere' },
      ],
    },
  },
  hibpData: [{ Name: 'Adobe', BreachDate: '2013-10-04' }],
  holeheData: { used: ['instagram.com', 'spotify.com'] },
  zehefData: {
    data: [
      {
        source: 'Gravatar',
        status: 'found',
        username: 'meerai',
        avatar_url: 'https://avatars.example.test/m.png',
        profile_url: 'https://gravatar.example.test/meerai',
      },
      { source: 'Duolingo', status: 'not found', username: 'ghost' },
    ],
  },
  getuserData: {
    person: {
      displayName: 'Meera Iyer',
      location: 'Bengaluru, Karnataka',
      phoneNumbers: ['+91 99000 11111'],
      linkedInUrl: 'https://linkedin.example.test/in/meera',
      headline: 'Data Analyst',
      schools: {
        educationHistory: [
          {
            schoolName: 'IISc',
            degreeName: 'MSc',
            fieldOfStudy: 'Statistics',
            schoolUrl: 'https://iisc.example.test',
            startEndDate: { start: { year: 2012 }, end: { year: 2014 } },
          },
        ],
      },
      positions: {
        positionHistory: [
          {
            title: 'Analyst',
            companyName: 'Acme',
            companyUrl: 'https://acme.example.test',
            startEndDate: { start: { year: 2015 }, end: { year: 2020 } },
          },
          { title: 'Lead', companyName: 'Globex', startEndDate: { start: { year: 2020 } } },
        ],
      },
      skills: ['SQL', 'Python', 'sql'],
    },
  },
  socialScanData: {
    data: [
      { platform: 'GitHub', available: false, valid: true },
      { platform: 'Twitter', available: true, valid: true },
      { platform: 'Pinterest', available: false, valid: false },
    ],
  },
  osintData: { data: [{ name: 'Meera I', email: 'meera@example.test', city: 'Bengaluru' }] },
  osData: { data: { phone: '9900011111' } },
  errors: {},
});

describe('mergeEmailProfile — a rich answer', () => {
  const profile = mergeEmailProfile(richEmail());

  it('reads the account-provider profile, skipping the default photo', () => {
    expect(pairs(profile.names)).toEqual([
      ['Meera Iyer', 'Account Provider'],
      ['Meera I.', 'Account Provider'],
      ['Meera Iyer', 'GetUser'],
      ['Meera I', 'OSINT'],
    ]);
    expect(pairs(profile.emails)).toEqual([
      ['meera@example.test', 'Account Provider'],
      ['meera@example.test', 'OSINT'],
    ]);
    expect(pairs(profile.lastUpdated)).toEqual([['01 Mar 2024, 10:00 IST', 'Account Provider']]);
    expect(profile.images).toEqual([
      { url: 'https://photos.example.test/meera.jpg', source: 'Account Provider' },
      { url: 'https://avatars.example.test/m.png', source: 'Avatar Service' },
    ]);
  });

  it('places only reviews with coordinates in locations', () => {
    expect(pairs(profile.locations)).toEqual([
      ['Cafe Blue, MG Road, Bengaluru', 'Account Provider', 'Review'],
      ['Bengaluru, Karnataka', 'GetUser'],
    ]);
  });

  it('reads the LinkedIn-style person into education, experience, jobs and skills', () => {
    expect(profile.qualifications).toEqual([
      {
        degree: 'MSc',
        field: 'Statistics',
        school: 'IISc',
        url: 'https://iisc.example.test',
        startYear: 2012,
        endYear: 2014,
        source: 'LinkedIn',
      },
    ]);
    expect(profile.experience).toEqual([
      {
        title: 'Analyst',
        company: 'Acme',
        url: 'https://acme.example.test',
        startYear: 2015,
        endYear: 2020,
        source: 'LinkedIn',
      },
      { title: 'Lead', company: 'Globex', startYear: 2020, source: 'LinkedIn' },
    ]);
    expect(pairs(profile.jobProfiles)).toEqual([
      ['Data Analyst', 'LinkedIn'],
      ['Analyst at Acme', 'LinkedIn'],
      ['Lead at Globex', 'LinkedIn'],
    ]);
    expect(pairs(profile.skills)).toEqual([
      ['SQL', 'LinkedIn'],
      ['Python', 'LinkedIn'],
    ]);
    expect(pairs(profile.phones)).toEqual([
      ['+91 99000 11111', 'GetUser'],
      ['9900011111', 'OSINT'],
    ]);
  });

  it('lists internet presence from LinkedIn, the avatar service, social scan and registered sites', () => {
    expect(profile.internetPresence).toEqual([
      {
        platform: 'LinkedIn',
        active: true,
        url: 'https://linkedin.example.test/in/meera',
        source: 'LinkedIn',
      },
      {
        platform: 'Gravatar',
        active: true,
        url: 'https://gravatar.example.test/meerai',
        source: 'Avatar Service',
      },
      { platform: 'GitHub', active: true, source: 'Social Scan' },
      { platform: 'Twitter', active: false, source: 'Social Scan' },
      { platform: 'instagram.com', active: true, source: 'Registered Sites' },
      { platform: 'spotify.com', active: true, source: 'Registered Sites' },
    ]);
    expect(pairs(profile.usernames)).toEqual([['meerai', 'Avatar Service']]);
  });

  it('is not empty', () => {
    expect(isEmailResultEmpty(richEmail())).toBe(false);
  });
});

describe('mergeEmailProfile — what a profile service and a person card add', () => {
  const data = (): Partial<EmailLookupData> => ({
    zehefData: {
      data: [
        {
          source: 'Gravatar',
          status: 'found',
          username: 'asha-rao',
          avatar_url: 'https://avatars.example.test/asha.png',
          profile_url: 'https://gravatar.example.test/asha-rao',
          display_name: 'Asha Rao',
          location: 'Pune, India',
          job_title: 'Architect',
          company: 'Orbitly',
        },
        { source: 'GitHub', status: 'found', profile_url: 'https://github.example.test/asharao' },
        { source: 'Tumblr', status: 'found', display_name: 'Asha R', company: 'Solo Studio' },
      ],
    },
    getuserData: {
      person: {
        displayName: 'Asha Rao',
        location: 'Pune, Maharashtra, India',
        locationHistory: ['Pune, Maharashtra, India', 'Nagpur, Maharashtra, India'],
        profiles: [
          { network: 'github', url: 'https://github.example.test/asharao', username: 'asharao' },
          { network: 'twitter', url: 'javascript:alert(1)', username: 'asha_r' },
          { network: null, url: 'https://nowhere.example.test', username: null },
        ],
      },
    },
  });

  it('reads the name, place, job and company of a found profile service item', () => {
    const profile = mergeEmailProfile(data());
    expect(pairs(profile.names)).toEqual([
      ['Asha Rao', 'GetUser'],
      ['Asha Rao', 'Avatar Service'],
      ['Asha R', 'Avatar Service'],
    ]);
    expect(pairs(profile.locations)).toEqual([
      ['Pune, Maharashtra, India', 'GetUser'],
      ['Nagpur, Maharashtra, India', 'GetUser'],
      ['Pune, India', 'Avatar Service'],
    ]);
    expect(pairs(profile.jobProfiles)).toEqual([
      ['Architect at Orbitly', 'Avatar Service'],
      ['Solo Studio', 'Avatar Service'],
    ]);
  });

  it("lists the person card's other accounts as presence and usernames, links only when safe", () => {
    const profile = mergeEmailProfile(data());
    expect(profile.internetPresence.filter((p) => p.source === 'GetUser')).toEqual([
      { platform: 'Github', active: true, url: 'https://github.example.test/asharao', source: 'GetUser' },
      { platform: 'Twitter', active: true, source: 'GetUser' },
    ]);
    expect(pairs(profile.usernames)).toEqual([
      ['asharao', 'GetUser'],
      ['asha_r', 'GetUser'],
      ['asha-rao', 'Avatar Service'],
    ]);
  });

  it('ignores the new fields on an item that was not found', () => {
    const profile = mergeEmailProfile({
      zehefData: { data: [{ source: 'Gravatar', status: 'not found', display_name: 'Ghost', company: 'X' }] },
    });
    expect(isProfileEmpty(profile)).toBe(true);
  });

  it('survives junk in place of every new field', () => {
    const junk: unknown[] = [null, 0, 42, 'x', '', true, [], [null, 1, 'x'], {}, { data: 'x' }];
    for (const path of leafPaths(data())) {
      for (const value of junk) {
        expect(() => mergeEmailProfile(withValueAt(data(), path, value)), path.join('.')).not.toThrow();
      }
    }
  });
});

describe('isEmailResultEmpty', () => {
  const failedProvider: Partial<EmailLookupData> = {
    emailData: { success: false, error: 'not found' },
    hibpData: [],
    holeheData: { used: [] },
    zehefData: { data: [{ source: 'Gravatar', status: 'not found' }] },
    getuserData: { person: null },
    socialScanData: { data: [{ platform: 'GitHub', available: true }] },
    osintData: { data: [] },
    errors: {},
  };

  it('is empty when the provider failed and nothing else was found', () => {
    expect(isEmailResultEmpty(failedProvider)).toBe(true);
    expect(isEmailResultEmpty({ errors: { emailData: 'timeout' } })).toBe(true);
    expect(isProfileEmpty(mergeEmailProfile(failedProvider))).toBe(true);
  });

  it('is not empty when the provider answered with success', () => {
    expect(isEmailResultEmpty({ emailData: { success: true } })).toBe(false);
  });

  it.each<[string, Partial<EmailLookupData>]>([
    ['a breach', { hibpData: [{ Name: 'Adobe' }] }],
    ['osint data', { osintData: { data: [{ name: 'X' }] } }],
    ['a found avatar', { zehefData: { data: [{ source: 'Gravatar', status: 'found' }] } }],
    ['a linked person', { getuserData: { person: { displayName: 'X' } } }],
    ['a taken platform', { socialScanData: { data: [{ platform: 'GitHub', available: false }] } }],
    ['a registered site', { holeheData: { used: ['twitter.com'] } }],
    ['a linked phone', { osData: { data: { phone: '9000000000' } } }],
  ])('is not empty with only %s', (_, extra) => {
    expect(isEmailResultEmpty({ ...failedProvider, ...extra })).toBe(false);
  });
});

describe('extraRecords', () => {
  it('turns records into cards with humanized additional fields', () => {
    const cards = extraRecords({
      data: [
        {
          source: 'forum-2019',
          name: 'Ravi',
          phone: 9876543210,
          email: 'ravi@example.test',
          image: 'https://pics.example.test/r.jpg',
          phone_secondary: '9123456789',
          last_seen: '2021',
          aliases: ['rk', 'ravi_k', null],
          meta: { ip: '10.0.0.1' },
          verified: true,
          empty_list: [],
          empty_object: {},
          blank: ' ',
          missing: null,
          dash: '-',
        },
      ] as never,
    });
    expect(cards).toEqual([
      {
        name: 'Ravi',
        phone: '9876543210',
        email: 'ravi@example.test',
        image: 'https://pics.example.test/r.jpg',
        additional: [
          ['Source', 'forum-2019'],
          ['Phone Secondary', '9123456789'],
          ['Last Seen', '2021'],
          ['Aliases', 'rk, ravi_k'],
          ['Meta', '{"ip":"10.0.0.1"}'],
          ['Verified', 'Yes'],
        ],
      },
    ]);
  });

  it('leaves the name undefined for the Unknown User card and shows unfit card fields as text', () => {
    const [card] = extraRecords({
      data: [{ name: null, image: 'javascript:alert(1)', username: 'anon', phone: { home: '1' } }] as never,
    });
    expect(card?.name).toBeUndefined();
    expect(card?.image).toBeUndefined();
    expect(card?.additional).toEqual([
      ['Image', 'javascript:alert(1)'],
      ['Username', 'anon'],
      ['Phone', '{"home":"1"}'],
    ]);
  });

  it('skips records that are not objects or hold nothing', () => {
    expect(extraRecords({ data: ['x', 3, null, [], {}, { name: '', extra: null }] as never })).toEqual([]);
  });
});

describe('image URLs', () => {
  it.each([
    ['https://a.example.test/p.jpg', true],
    ['http://a.example.test/photo', true],
    ['data:image/png;base64,iVBORw0KGgo=', true],
    ['DATA:IMAGE/JPEG;base64,/9j/', true],
    ['data:text/html;base64,PHNjcmlwdD4=', false],
    ['javascript:alert(1)//.png', false],
    ['/relative/p.png', false],
    ['ftp://a.example.test/p.png', false],
    ['', false],
    [42, false],
    [null, false],
  ])('isSafeImageUrl(%j) → %s', (url, expected) => {
    expect(isSafeImageUrl(url)).toBe(expected);
  });

  it.each([
    ['https://a.example.test/p.JPG', true],
    ['https://a.example.test/p.jpeg?size=200#top', true],
    ['https://a.example.test/p.gif', true],
    ['https://a.example.test/p.png', true],
    ['https://a.example.test/p.webp', true],
    ['data:image/gif;base64,R0lGOD', true],
    ['https://a.example.test/p.svg', false],
    ['https://a.example.test/p.png.html', false],
    ['https://a.example.test/profile?format=png', false],
    ['javascript:alert(1)//.png', false],
    [undefined, false],
  ])('looksLikeImage(%j) → %s', (url, expected) => {
    expect(looksLikeImage(url)).toBe(expected);
  });
});

// ---------- helpers for the junk tests ----------

type Path = Array<string | number>;

function leafPaths(value: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = prefix.length ? [prefix] : [];
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      paths.push(...leafPaths(child, [...prefix, Array.isArray(value) ? Number(key) : key]));
    }
  }
  return paths;
}

function withValueAt<T>(root: T, path: Path, value: unknown): T {
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = value;
  return root;
}
