import { describe, expect, it } from 'vitest';
import {
  firstErrors,
  isEmail,
  loginRequest,
  registerRequest,
  resetPasswordRequest,
  toFieldErrors,
  verifyOtpRequest,
} from '../src/index.ts';

const errorsOf = (
  schema: { safeParse: (v: unknown) => { success: boolean; error?: unknown } },
  value: unknown,
) => {
  const result = schema.safeParse(value);
  if (result.success) return {};
  return toFieldErrors(result.error as never);
};

describe('e-mail shape', () => {
  it.each([
    ['agent@example.test', true],
    ['a.b+c@sub.example.co.in', true],
    ['no-at-sign.example', false],
    ['two@@example.test', false],
    ['space @example.test', false],
    ['tab\t@example.test', false],
    ['nodot@example', false],
    ['', false],
  ])('%j → %s', (value, expected) => {
    expect(isEmail(value)).toBe(expected);
  });
});

describe('login request', () => {
  it('normalises the e-mail to lower case and trims it', () => {
    expect(loginRequest.parse({ email: '  Agent@Example.TEST ', password: 'x' })).toEqual({
      email: 'agent@example.test',
      password: 'x',
    });
  });

  it('gives one required message per empty field', () => {
    expect(errorsOf(loginRequest, { email: '', password: '' })).toEqual({
      email: ['The email field is required.'],
      password: ['The password field is required.'],
    });
  });

  it('says which fields are not strings and which are not allowed', () => {
    expect(errorsOf(loginRequest, { email: 5, password: null, admin: true })).toEqual({
      email: ['The email field must be a string.'],
      password: ['The password field is required.'],
      admin: ['The admin field is not allowed.'],
    });
  });

  it('bounds the password length so hashing work stays bounded', () => {
    expect(errorsOf(loginRequest, { email: 'a@b.co', password: 'x'.repeat(129) })).toEqual({
      password: ['The password field must not be greater than 128 characters.'],
    });
  });
});

describe('register request', () => {
  it('requires matching passwords of at least 12 characters, spaces allowed, no composition rules', () => {
    expect(
      errorsOf(registerRequest, {
        name: 'A',
        email: 'a@b.co',
        password: 'short',
        password_confirmation: 'shorter',
      }),
    ).toEqual({
      password: [
        'The password field must be at least 12 characters.',
        'The password field confirmation does not match.',
      ],
    });
    const elevenOrTwelve = (password: string) =>
      registerRequest.safeParse({ name: 'A', email: 'a@b.co', password, password_confirmation: password })
        .success;
    expect(elevenOrTwelve('abcdefghijk')).toBe(false);
    expect(elevenOrTwelve('abcdefghijkl')).toBe(true);
    // Spaces count, and nothing demands digits, capitals or symbols.
    expect(elevenOrTwelve('tea with milk')).toBe(true);
    expect(
      errorsOf(resetPasswordRequest, {
        email: 'a@b.co',
        token: 't',
        password: '        ',
        password_confirmation: '        ',
      }),
    ).toEqual({ password: ['The password field must be at least 12 characters.'] });
  });

  it('names every missing field with the human label', () => {
    expect(Object.values(errorsOf(registerRequest, {})).map((list) => list[0])).toEqual([
      'The name field is required.',
      'The email field is required.',
      'The password field is required.',
      'The password confirmation field is required.',
    ]);
  });
});

describe('reset and OTP requests', () => {
  it('checks the reset token and both passwords', () => {
    expect(Object.keys(errorsOf(resetPasswordRequest, { email: 'a@b.co' })).sort()).toEqual([
      'password',
      'password_confirmation',
      'token',
    ]);
  });

  it.each(['123456', '000000'])('accepts the six-digit code %s', (otp) => {
    expect(verifyOtpRequest.safeParse({ email: 'a@b.co', otp }).success).toBe(true);
  });

  it.each(['12345', '1234567', '12a456', ' 123456', '１２３４５６'])('refuses %j', (otp) => {
    expect(errorsOf(verifyOtpRequest, { email: 'a@b.co', otp })).toEqual({
      otp: ['The otp field must be 6 digits.'],
    });
  });
});

describe('firstErrors', () => {
  it('keeps the first message of each field, as the forms show them', () => {
    expect(firstErrors({ email: ['one', 'two'], password: [] })).toEqual({ email: 'one' });
    expect(firstErrors(undefined)).toEqual({});
  });
});

describe('field errors for hostile keys', () => {
  it("reports keys named like Object's own properties as plain fields", () => {
    // Found by the hostile-input suite: a body with a 'constructor' key crashed the error builder.
    const errors = errorsOf(
      loginRequest,
      JSON.parse('{"email":"a@b.co","password":"x","constructor":1,"__proto__":2,"toString":3}'),
    );
    expect(Object.keys(errors).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(JSON.parse(JSON.stringify(errors)).constructor).toEqual([expect.any(String)]);
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
  });
});
