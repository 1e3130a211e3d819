import { LoginForm } from '@opsdeck/contract/auth';
import { describe, expect, it } from 'vitest';
import { LOGIN_FIELDS, LOGIN_RULES, type LoginValues, loginRequest } from './login-rules';

const samples: LoginValues[] = [
  { email: '', password: '' },
  { email: '   ', password: ' ' },
  { email: ' ada@acme.test ', password: 'secret' },
  { email: 'ada', password: '' },
  { email: '\tada@acme.test\n', password: '  spaced  ' },
];

describe('the login rules', () => {
  it.each(samples)('answer as the contract schema does for %j', (values) => {
    const parsed = LoginForm.safeParse(values);
    const schemaErrors = Object.fromEntries(
      (parsed.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]),
    );
    const ruleErrors = Object.fromEntries(
      LOGIN_FIELDS.flatMap((field) => {
        const key = LOGIN_RULES[field](values[field]);
        return key ? [[field, key]] : [];
      }),
    );
    expect(ruleErrors).toEqual(schemaErrors);
    if (parsed.success) {
      expect(loginRequest(values)).toEqual({ username: parsed.data.email, password: parsed.data.password });
    }
  });
});
