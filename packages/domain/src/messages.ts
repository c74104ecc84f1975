/**
 * Every user-visible text of the product spec, written once. The web and the server import these;
 * tests compare them with strings copied from the spec, so a typo here fails a test.
 */
export const messages = {
  brand: 'Footprint',
  taglines: {
    proactive: 'Proactive Intelligence: Uncover Threats, Secure the Future.',
    footprint: 'FIND YOUR DIGITAL FOOTPRINT',
  },
  session: {
    expired: 'Session expired. Please log in again.',
  },
  login: {
    failed: 'Login failed. Please check your credentials.',
    signUpLink: 'Not a member yet? Sign Up',
    invalidCredentials: 'These credentials do not match our records.',
    otpSent: 'A one-time password has been sent to your email. Enter it to trust this device.',
    accountDisabled: 'This account has been disabled. Contact your administrator.',
  },
  register: {
    failed: 'Register failed. Please check your credentials.',
    success: 'Registration successful! Please log in.',
    disabled: 'Registration is currently disabled.',
    forbidden: 'Forbidden',
    goBackHome: 'Go Back Home',
    created: 'Registration successful.',
  },
  forgot: {
    submitting: 'Submitting...',
    success: 'Password reset link sent successfully!',
    submit: 'Submit',
    status: 'If an account exists for that address, we have emailed a password reset link.',
  },
  reset: {
    success: 'Your password has been reset! And Click the Back to redirect to login',
    status: 'Your password has been reset.',
    invalidToken: 'This password reset token is invalid or has expired.',
  },
  otp: {
    title: 'Verify Your Email',
    sentTo: (email: string) => `Enter the 6-digit OTP sent to: ${email}`,
    expiresIn: (mmss: string) => `OTP expires in: ${mmss}`,
    resend: 'Resend OTP',
    verify: 'Verify',
    invalidValue: 'Invalid OTP value',
    verifyFailed: 'OTP verification failed',
    resendFailed: 'Failed to resend OTP.',
    resendSuccess: 'OTP resend successfully.',
    resent: 'A new OTP has been sent if the address has a pending verification.',
    wrong: 'The OTP is incorrect.',
    expired: 'The OTP has expired. Request a new one.',
    tooManyAttempts: 'Too many wrong attempts for this OTP. Request a new one.',
    cooldown: (seconds: number) => `Please wait ${seconds} seconds before requesting a new OTP.`,
  },
  logout: {
    inProgress: 'Logging out...',
    done: 'Logged out.',
  },
  notFound: {
    title: '404 - Page Not Found',
    body: "The page you are looking for doesn't exist or has been moved.",
  },
  upgrade: {
    title: 'Not Availabe for trial',
    body: 'This feature is only available for live users.',
    goToDashboard: 'Go to Dashboard',
  },
  credits: {
    label: (n: number | string) => `Credits: ${n}`,
    insufficient: 'Insufficient credits.',
    insufficientUpgrade: 'Insufficient credits. Please upgrade your plan.',
  },
  footer: {
    rights: 'All rights reserved',
  },
  /** Sidebar of the signed-in layout, spec §2.4, in the spec's order. */
  mainNav: {
    emailSearch: 'Email Search',
    phoneSearch: 'Phone Search',
    leakFinder: 'Leak Data Finder',
    corporate: 'Corporate Intelligence',
    verifiedId: 'Verified ID',
    logout: 'Logout',
    help: 'Help',
  },
  /** Public (marketing and policy) pages, spec §2.1 and §9. */
  public: {
    nav: {
      home: 'HOME',
      login: 'LOGIN',
      who: 'WHO',
      privacy: 'PRIVACY',
      contact: 'CONTACT',
    },
    footerLinks: {
      support: 'Support',
      company: 'Company',
      terms: 'Terms',
      refund: 'Refund',
    },
    about: { title: 'ABOUT US' },
    contact: {
      title: 'CONTACT US',
      invite: 'Write to us for more information about our solutions or services.',
      email: 'support@footprint.test',
      website: 'https://footprint.test',
    },
    privacy: {
      title: 'Privacy Policy',
      sections: [
        'Information We Collect',
        'How We Use Information',
        'Data Protection',
        'Sharing of Information',
        'Your Rights',
        'Compliance',
        'Changes to This Policy',
        'Contact Us',
      ],
    },
    terms: { title: 'Terms & Conditions', owner: 'Footprint Intelligence LLP' },
    refund: {
      title: 'Refund Policy',
      noRefunds: 'No Returns or Refunds',
      nonTransferable: 'Non-Transferable',
      needHelp: 'Need Help',
    },
    notFoundBack: 'Back to Home',
  },
  errors: {
    generic: 'Something went wrong.',
    tooManyRequests: (seconds: number) => `Too many attempts. Please try again in ${seconds} seconds.`,
    csrfMismatch: 'CSRF token mismatch.',
    malformedJson: 'The request body is not valid JSON.',
    unsupportedMedia: 'Send the request body as application/json.',
    unauthenticated: 'Unauthenticated.',
    forbidden: 'This action is unauthorized.',
    notFound: 'Not found.',
    internal: 'Internal server error.',
    validation: 'The given data was invalid.',
  },
} as const;

/** Laravel-style field messages: the spec's browser shows the first message of each field. */
export const fieldMessages = {
  required: (field: string) => `The ${field} field is required.`,
  string: (field: string) => `The ${field} field must be a string.`,
  email: (field: string) => `The ${field} field must be a valid email address.`,
  max: (field: string, max: number) => `The ${field} field must not be greater than ${max} characters.`,
  min: (field: string, min: number) => `The ${field} field must be at least ${min} characters.`,
  confirmed: (field: string) => `The ${field} field confirmation does not match.`,
  taken: (field: string) => `The ${field} has already been taken.`,
  digits: (field: string, n: number) => `The ${field} field must be ${n} digits.`,
  notAllowed: (field: string) => `The ${field} field is not allowed.`,
} as const;
