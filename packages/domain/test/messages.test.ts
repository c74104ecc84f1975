import { describe, expect, it } from 'vitest';
import { messages } from '../src/index.ts';

// Strings copied from the product spec (../shared/spec/product-spec.md), so a typo in the module fails.
describe('spec texts', () => {
  it.each([
    [messages.session.expired, 'Session expired. Please log in again.'],
    [messages.login.failed, 'Login failed. Please check your credentials.'],
    [messages.login.signUpLink, 'Not a member yet? Sign Up'],
    [messages.register.failed, 'Register failed. Please check your credentials.'],
    [messages.register.success, 'Registration successful! Please log in.'],
    [messages.register.disabled, 'Registration is currently disabled.'],
    [messages.register.forbidden, 'Forbidden'],
    [messages.register.goBackHome, 'Go Back Home'],
    [messages.forgot.submitting, 'Submitting...'],
    [messages.forgot.success, 'Password reset link sent successfully!'],
    [messages.reset.success, 'Your password has been reset! And Click the Back to redirect to login'],
    [messages.otp.title, 'Verify Your Email'],
    [messages.otp.sentTo('a@b.co'), 'Enter the 6-digit OTP sent to: a@b.co'],
    [messages.otp.expiresIn('09:59'), 'OTP expires in: 09:59'],
    [messages.otp.resend, 'Resend OTP'],
    [messages.otp.invalidValue, 'Invalid OTP value'],
    [messages.otp.verifyFailed, 'OTP verification failed'],
    [messages.otp.resendFailed, 'Failed to resend OTP.'],
    [messages.otp.resendSuccess, 'OTP resend successfully.'],
    [messages.logout.inProgress, 'Logging out...'],
    [messages.notFound.title, '404 - Page Not Found'],
    [messages.notFound.body, "The page you are looking for doesn't exist or has been moved."],
    [messages.upgrade.title, 'Not Availabe for trial'],
    [messages.credits.label(42), 'Credits: 42'],
    [messages.credits.insufficient, 'Insufficient credits.'],
    [messages.credits.insufficientUpgrade, 'Insufficient credits. Please upgrade your plan.'],
    [messages.taglines.proactive, 'Proactive Intelligence: Uncover Threats, Secure the Future.'],
    [messages.taglines.footprint, 'FIND YOUR DIGITAL FOOTPRINT'],
    [messages.footer.rights, 'All rights reserved'],
  ])('%s', (actual, fromSpec) => {
    expect(actual).toBe(fromSpec);
  });
});
