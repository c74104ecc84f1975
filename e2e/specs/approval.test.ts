// Access by approval, end to end on a server of its own in the product's default registration mode
// (approval) with real SMTP: register in the browser, see the message, be refused at sign-in with the
// pending message, an admin approves in the admin console, the e-mail arrives, the user signs in.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '../support/api.ts';
import { problemsOf, screenshot, uniqueEmail, useBrowser } from '../support/browser.ts';
import { type RunningServer, startProductServer } from '../support/server.ts';
import { startSmtpServer } from '../support/smtp.ts';

const browser = useBrowser();
let server: RunningServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // No REGISTRATION_MODE from here: the product's default is approval (the shared server says open).
  // Nor REGISTRATION_REQUIRED_FIELDS: organisation and designation required, the ID reference optional.
  server = await startProductServer({
    SMTP_URL: smtp.url,
    REGISTRATION_MODE: '',
    REGISTRATION_REQUIRED_FIELDS: '',
    SANDBOX_LEAK_RECORDS: '0',
  });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const at = (path: string) => `${server.url}${path}`;
const otpOf = (text: string) => {
  const code = /code is (\d{6})/.exec(text)?.[1];
  expect(code, text).toBeTruthy();
  return code!;
};

async function fillLogin(page: Page, email: string, password: string) {
  await page.goto(at('/login'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/** The whole sign-in of a new browser: password, then the code that arrived over SMTP. */
async function signInWithCode(page: Page, email: string, password: string) {
  const before = smtp.inbox.length;
  await fillLogin(page, email, password);
  await page.waitForURL('**/otp-verification');
  const code = otpOf((await smtp.waitFor(email, /verification code/, before)).text);
  for (const [i, digit] of [...code].entries()) await page.getByLabel(`Digit ${i + 1} of 6`).press(digit);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

describe('registration by approval', () => {
  it('registers, is refused while pending, is approved in the admin console, is mailed and signs in', async () => {
    const email = uniqueEmail('awaiting');
    const password = 'a long passphrase';
    const page = await browser.newPage({ width: 1366, height: 900 });

    await page.goto(at('/register'));
    await page.getByLabel('Name').fill('Anita Awaiting');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password', { exact: true }).fill(password);
    // Organisation and designation are required (marked, and refused empty with the server's message);
    // the official ID reference is optional.
    const organisation = page.getByLabel('Organisation');
    const designation = page.getByLabel('Designation');
    const idReference = page.getByLabel('Official ID reference');
    expect(await organisation.getAttribute('required')).not.toBeNull();
    expect(await designation.getAttribute('required')).not.toBeNull();
    expect(await idReference.getAttribute('required')).toBeNull();
    expect(await page.getByText('Optional', { exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText('The organisation field is required.').waitFor();
    await page.getByText('The designation field is required.').waitFor();
    await screenshot(page, 'register-fields-required-desktop');
    // The server holds to the same rule whatever the browser sends: its per-field message is shown.
    await page.route('**/api/register', (route) =>
      route.continue({
        postData: JSON.stringify({ ...JSON.parse(route.request().postData() ?? '{}'), organisation: '' }),
      }),
    );
    await organisation.fill('Cyber Crime Cell, Pune Police');
    await designation.fill('Sub-Inspector');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'The organisation field is required.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/register');
    await page.unroute('**/api/register');
    await idReference.fill('PN-4821');
    // (The refused attempt's toast goes first: the picture after registering shows what a user sees.)
    await page.locator('.Toastify__toast').waitFor({ state: 'detached', timeout: 15_000 });
    await screenshot(page, 'register-fields-filled-desktop');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.waitForURL('**/login');
    // One message: that the account waits for approval, and what happens next; no toast beside it.
    const notice = page.getByRole('status').filter({ hasText: 'Your account is waiting for approval' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`You will get an e-mail at ${email} when it is approved`);
    // (The refused attempt above left its 'Register failed.' toast; nothing about the sign-up itself.)
    expect(await page.getByText('Registration successful! Please log in.').count()).toBe(0);
    expect(await page.locator('.Toastify__toast', { hasText: /approval|Registration/ }).count()).toBe(0);
    await screenshot(page, 'register-pending-message-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'register-pending-message-phone');
    await page.setViewportSize({ width: 1366, height: 900 });

    // The wrong password says nothing about the account; the right one says it waits.
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not the passphrase');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByText('These credentials do not match our records.').waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'waiting for approval' }).count()).toBe(0);

    const mailsBefore = smtp.inbox.length;
    await fillLogin(page, email, password);
    const refused = page.getByRole('alert').filter({
      hasText:
        'Your account is waiting for approval by an administrator. You will get an e-mail when it is approved.',
    });
    await refused.waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'login-pending-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await refused.scrollIntoViewIfNeeded();
    await screenshot(page, 'login-pending-phone');
    // No code was mailed to a pending account.
    expect(smtp.inbox.slice(mailsBefore).filter((m) => m.to.includes(email))).toEqual([]);

    // The admin finds it under Pending and approves it, after a confirmation.
    const admin = await browser.newPage({ width: 1366, height: 900 });
    await signInWithCode(admin, 'demo-admin@footprint.test', demoPassword);
    await admin.goto(at('/admin/users'));
    const pendingTab = admin.getByRole('button', { name: /^Pending/ });
    await pendingTab.getByText('waiting for approval').waitFor({ state: 'attached' });
    await pendingTab.click();
    await admin.waitForURL('**/admin/users?status=pending');
    await admin.locator('button[aria-pressed="true"]', { hasText: 'Pending' }).waitFor();
    await admin.mouse.move(0, 0);
    const row = admin.getByRole('row').filter({ hasText: email });
    await row.getByText('Pending', { exact: true }).waitFor();
    // What the sign-up gave is on the approval screen, for the approver to judge.
    await row.getByText('Sub-Inspector · Cyber Crime Cell, Pune Police').waitFor();
    await row.getByText('ID: PN-4821').waitFor();
    // The whole list stays on screen until the pending one arrives: wait for it to be replaced.
    await expect
      .poll(() => admin.getByRole('row').filter({ hasText: 'demo-admin@footprint.test' }).count())
      .toBe(0);
    await screenshot(admin, 'admin-users-pending-desktop');

    const approveMailsBefore = smtp.inbox.length;
    await row.getByRole('button', { name: `Approve ${email}` }).click();
    const dialog = admin.getByRole('dialog', { name: 'Approve account' });
    await dialog.getByText(`Approve ${email}?`).waitFor();
    await dialog.getByText('Cyber Crime Cell, Pune Police').waitFor();
    await dialog.getByText('PN-4821').waitFor();
    await screenshot(admin, 'admin-users-approve-desktop');
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await admin.getByText(`${email} approved and notified by e-mail.`).waitFor();
    await expect.poll(() => admin.getByRole('row').filter({ hasText: email }).count()).toBe(0);

    const approved = await smtp.waitFor(email, /account is approved/, approveMailsBefore);
    expect(approved.text).toContain('Hello Anita Awaiting');
    expect(approved.text).toContain(at('/login'));

    // The user signs in (a new device: with the mailed code) and reaches the dashboard.
    await page.setViewportSize({ width: 1366, height: 900 });
    await signInWithCode(page, email, password);
    await page.getByText('Credits: 20').waitFor();

    // The approval is in the audit trail, by the admin.
    await admin.goto(at(`/admin/audit?action=admin.user.approve`));
    await admin.getByRole('row').filter({ hasText: 'admin.user.approve' }).first().waitFor();
    expect(problemsOf(page)).toEqual([]);
    expect(problemsOf(admin)).toEqual([]);
    // Two browsers, two sign-ins with mailed codes and a server of its own: more than the default minute
    // on a loaded machine.
  }, 240_000);

  it('shows pending accounts and the registration mode on a phone, and a closed registration hides Sign Up', async () => {
    const email = uniqueEmail('phone-pending');
    const register = await fetch(at('/api/register'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Pia Pending',
        email,
        password: 'long enough pw',
        password_confirmation: 'long enough pw',
        organisation: 'The Synthetic Herald',
        designation: 'Investigative reporter',
      }),
    });
    expect(register.status).toBe(201);
    expect((await register.json()).approval_required).toBe(true);

    const admin = await browser.newPage({ width: 390, height: 844 });
    await signInWithCode(admin, 'demo-admin@footprint.test', demoPassword);
    await admin.goto(at('/admin/users?status=pending'));
    await admin.getByRole('row').filter({ hasText: email }).waitFor();
    await screenshot(admin, 'admin-users-pending-phone');

    // Reject from the account's own screen, with a reason.
    await admin.getByRole('link', { name: /Pia Pending/ }).click();
    await admin.getByText('This account registered itself and waits for approval.').waitFor();
    const told = admin.getByRole('region', { name: 'Approve account' });
    await told.getByText('The Synthetic Herald').waitFor();
    await told.getByText('Investigative reporter').waitFor();
    // No ID reference was given: said so, not left blank.
    await told.getByText('Not given').waitFor();
    await screenshot(admin, 'admin-user-pending-phone');
    const rejectMailsBefore = smtp.inbox.length;
    await admin.getByRole('button', { name: 'Reject', exact: true }).click();
    const dialog = admin.getByRole('dialog', { name: 'Reject account' });
    await dialog.getByLabel('Reason (optional, sent in the e-mail)').fill('We could not verify your agency.');
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    await admin.getByText(`${email} rejected and notified by e-mail.`).waitFor();
    const rejected = await smtp.waitFor(email, /not approved/, rejectMailsBefore);
    expect(rejected.text).toContain('Reason given: We could not verify your agency.');

    await admin.goto(at('/admin/settings'));
    const mode = (name: string) => admin.getByRole('radio', { name, exact: true });
    expect(await mode('Approval').isChecked()).toBe(true);
    // The sign-up's required fields are a setting: the defaults shown, and a change reaches /register.
    const requires = (label: string) => admin.getByRole('checkbox', { name: `${label} required` });
    expect(await requires('Organisation').isChecked()).toBe(true);
    expect(await requires('Designation').isChecked()).toBe(true);
    expect(await requires('Official ID reference').isChecked()).toBe(false);
    await requires('Official ID reference').check();
    await requires('Designation').uncheck();
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(async () => (await (await fetch(at('/api/registration-status'))).json()).required_fields)
      .toEqual(['organisation', 'identity_reference']);
    const form = await browser.newPage({ width: 390, height: 844 });
    await form.goto(at('/register'));
    expect(await form.getByLabel('Official ID reference').getAttribute('required')).not.toBeNull();
    expect(await form.getByLabel('Designation').getAttribute('required')).toBeNull();
    await screenshot(form, 'register-fields-phone');
    await form.close();
    await requires('Official ID reference').uncheck();
    await requires('Designation').check();
    await screenshot(admin, 'admin-settings-registration-phone');
    await admin.setViewportSize({ width: 1366, height: 900 });
    await screenshot(admin, 'admin-settings-registration-desktop');

    await mode('Closed').check();
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText('Saved.').first().waitFor();
    // (The first save's 'Saved.' may still be on screen: wait for the server to say closed.)
    await expect
      .poll(async () => (await (await fetch(at('/api/registration-status'))).json()).registration_mode)
      .toBe('closed');
    const visitor = await browser.newPage({ width: 1366, height: 900 });
    try {
      await visitor.goto(at('/login'));
      await visitor.getByRole('button', { name: 'Login', exact: true }).waitFor();
      await expect
        .poll(() => visitor.getByRole('link', { name: 'Not a member yet? Sign Up' }).count(), {
          // The prerendered page shows the link until the app has started and asked the server.
          timeout: 15_000,
        })
        .toBe(0);
      await visitor.goto(at('/register'));
      await visitor.getByText('Registration is currently disabled.').waitFor();
      await visitor.getByText('Registration is closed: accounts are created by an administrator.').waitFor();
    } finally {
      await mode('Approval').check();
      await admin.getByRole('button', { name: 'Save settings' }).click();
      await expect
        .poll(async () => (await (await fetch(at('/api/registration-status'))).json()).registration_mode)
        .toBe('approval');
    }
    await visitor.goto(at('/login'));
    await visitor.getByRole('link', { name: 'Not a member yet? Sign Up' }).waitFor();
  }, 240_000);
});
