import { Box, Progress, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  PASSWORD_LIMITS,
  type PasswordPerson,
  type PasswordStrength,
  passwordLengthProblem,
  passwordStrength,
  passwordUserInputs,
} from '@opsdeck/contract/passwords';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../lib/i18n';
import PASSWORD_STRINGS from '../locales/en/password.json';

// The reset panel on /login uses this before the signed-in shell loads the areas' strings.
i18n.addResourceBundle('en', 'translation', { password: PASSWORD_STRINGS }, true, false);

/** What the hint judges beside the password: who receives it (an admin needs 12 characters) and whose it is. */
export interface StrengthOptions {
  admin?: boolean;
  person?: PasswordPerson;
}

export type StrengthLevel = 'weak' | 'fair' | 'good' | 'strong';

const LEVELS: Record<StrengthLevel, { value: number; color: string }> = {
  weak: { value: 25, color: 'red' },
  fair: { value: 50, color: 'orange' },
  good: { value: 75, color: 'teal' },
  strong: { value: 100, color: 'green' },
};

/**
 * zxcvbn's score as a word: below the rule's score (or too short, or listed) is weak or fair,
 * which the form refuses; 3 is good and 4 strong.
 */
export function strengthLevel(password: string, strength: PasswordStrength, admin = false): StrengthLevel {
  if (strength.listed || passwordLengthProblem(password, admin)) return 'weak';
  if (strength.score >= 4) return 'strong';
  if (strength.score >= PASSWORD_LIMITS.minScore) return 'good';
  return strength.score === 2 ? 'fair' : 'weak';
}

/**
 * The strength hint under a new password while it is typed: a bar (a progressbar named for
 * screen readers) and its level in words, with zxcvbn's warning. The estimator loads on the first
 * character (its own chunk); the form's own check refuses what is weak.
 */
export function PasswordStrengthHint({ password, options }: { password: string; options: StrengthOptions }) {
  const { t } = useTranslation();
  const [debounced] = useDebouncedValue(password, 120);
  const [judged, setJudged] = useState<{ password: string; strength: PasswordStrength } | null>(null);
  const inputs = options.person ? passwordUserInputs(options.person) : [];
  const inputsKey = inputs.join('\n');

  useEffect(() => {
    if (!debounced) return;
    let live = true;
    passwordStrength(debounced, inputsKey ? inputsKey.split('\n') : []).then(
      (strength) => {
        if (live) setJudged({ password: debounced, strength });
      },
      // The estimator could not load: the hint stays away, the form and the server still judge.
      () => {},
    );
    return () => {
      live = false;
    };
  }, [debounced, inputsKey]);

  if (!password || !judged) return null;
  const level = strengthLevel(judged.password, judged.strength, options.admin);
  const warning = judged.strength.warning;
  return (
    <Box mt={6} data-testid="password-strength">
      <Progress
        value={LEVELS[level].value}
        color={LEVELS[level].color}
        size="sm"
        aria-label={t('password.strengthLabel')}
      />
      <Text size="xs" c="dimmed" mt={4} aria-live="polite">
        {t('password.strength', { level: t(`password.level.${level}`) })}
        {warning && i18n.exists(`password.warning.${warning}`) ? ` ${t(`password.warning.${warning}`)}` : ''}
      </Text>
    </Box>
  );
}
