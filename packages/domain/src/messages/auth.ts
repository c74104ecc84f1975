/** Signing in, registering, the OTP and password reset (spec §2.2). */
export const authTexts = {
  session: {
    expired: 'Session expired. Please log in again.',
  },
  login: {
    failed: 'Login failed. Please check your credentials.',
    signUpLink: 'Not a member yet? Sign Up',
    invalidCredentials: 'These credentials do not match our records.',
    otpSent: 'A one-time password has been sent to your email. Enter it to trust this device.',
    accountDisabled: 'This account has been disabled. Contact your administrator.',
    accountPending:
      'Your account is waiting for approval by an administrator. You will get an e-mail when it is approved.',
    accountRejected:
      'Your registration was not approved, so this account cannot sign in. Contact your administrator if you think this is a mistake.',
  },
  register: {
    failed: 'Register failed. Please check your credentials.',
    success: 'Registration successful! Please log in.',
    disabled: 'Registration is currently disabled.',
    forbidden: 'Forbidden',
    goBackHome: 'Go Back Home',
    created: 'Registration successful.',
    /** Shown on /register while the mode is `closed` (under the spec's 'Registration is currently disabled.'). */
    closedHint: 'Registration is closed: accounts are created by an administrator.',
    /** Shown on /login after a registration that waits for an administrator's approval. */
    pendingNotice:
      'Your account is waiting for approval by an administrator. You will get an e-mail when it is approved.',
    /**
     * The one message after a sign-up that waits for approval (shown on /login, with no toast beside it):
     * that it waits, and what happens next.
     */
    pendingNext: (email: string) =>
      `Registration received. Your account is waiting for approval: an administrator checks your organisation, designation and official ID before any search can be made. You will get an e-mail at ${email} when it is approved; then sign in here.`,
  },
  /**
   * The sign-up's profile for an approver to judge (not in the spec): which of the three are required
   * is an admin setting (Admin → Settings → Registration).
   */
  signupFields: {
    labels: {
      organisation: 'Organisation',
      designation: 'Designation',
      identity_reference: 'Official ID reference',
    },
    /** The field's name inside a sentence ('The identity reference field is required.'). */
    names: {
      organisation: 'organisation',
      designation: 'designation',
      identity_reference: 'official ID reference',
    },
    hints: {
      organisation: 'The agency, force, newsroom or firm you work for.',
      designation: 'Your rank or job title, e.g. Sub-Inspector, Investigative reporter.',
      identity_reference: 'A badge, employee or press-card number an approver can check.',
    },
    placeholders: {
      organisation: 'e.g. Cyber Crime Cell, Pune Police',
      designation: 'e.g. Sub-Inspector',
      identity_reference: 'e.g. badge no. PN-4821',
    },
    optional: 'Optional',
    requiredLegend: 'Fields marked * are required.',
    control: (name: string) => `The ${name} field may not contain control characters.`,
  },
  /** Why a new password was refused, and the strength meter of the register and reset forms (not in the spec). */
  passwordRules: {
    common:
      'This password is too common: it is on the list of the passwords most used and leaked. Choose a less predictable one.',
    breached:
      'This password has appeared in a data breach, so attackers try it first. Choose a different one.',
    hint: 'At least 12 characters. A few unrelated words make a strong password; spaces are allowed.',
    strengthLabel: 'Password strength',
    strength: ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as readonly string[],
    checking: 'Checking strength…',
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
    /** The resend button while the server's cooldown runs (not in the spec), e.g. 'Resend OTP (00:42)'. */
    resendIn: (mmss: string) => `Resend OTP (${mmss})`,
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
  /** The sign-in pages' own texts around the spec's (spec §2.2 names the fields, not their labels). */
  authPages: {
    email: 'Email',
    password: 'Password',
    confirmPassword: 'Confirm password',
    name: 'Name',
    newPassword: 'New password',
    emailPlaceholder: 'name@agency.gov',
    showPassword: (label: string) => `Show ${label.toLowerCase()}`,
    backToLogin: 'Back to login',
    login: {
      title: 'Login',
      subtitle: 'Sign in to your investigator account.',
      forgotLink: 'Forgot password?',
      submit: 'Login',
      submitting: 'Signing in...',
    },
    register: {
      title: 'Create an account',
      subtitle: 'Accounts are licensed to authorised personnel and cannot be transferred.',
      haveAccount: 'Already have an account?',
      loginLink: 'Login',
      submit: 'Register',
      submitting: 'Creating account...',
      checking: 'Checking registration availability',
    },
    forgot: {
      title: 'Forgot your password?',
      subtitle:
        'Enter the e-mail address of your account and we will send you a link to choose a new password.',
    },
    reset: {
      title: 'Reset your password',
      subtitle: 'Choose a new password for your account.',
      submit: 'Reset Password',
      submitting: 'Resetting...',
      doneBody: 'You can now sign in with your new password.',
    },
    otp: {
      legend: 'One-time password',
      digit: (n: number, of: number) => `Digit ${n} of ${of}`,
      noChallenge:
        'There is no verification in progress. Sign in first; if this device needs confirming, a code will be e-mailed to you.',
      goToLogin: 'Go to login',
    },
  },
} as const;
