import { type Activity, SaveActivity } from '@opsdeck/contract/activities';
import { z } from 'zod';

/** The activity form (spec section 5): the contract's rules, with `partial` as a checkbox. */
export const activityFormSchema = z.object({
  name: SaveActivity.shape.name,
  key: SaveActivity.shape.key,
  category: SaveActivity.shape.category,
  partial: z.boolean(),
});

export type ActivityFormValues = z.input<typeof activityFormSchema>;
export type ActivityFormOutput = z.output<typeof activityFormSchema>;

export const emptyActivityForm = (): ActivityFormValues => ({ name: '', key: '', category: '', partial: false });

export const activityToForm = (activity: Activity): ActivityFormValues => ({
  name: activity.name,
  key: activity.key,
  category: activity.category,
  partial: activity.isPartial,
});

export const toSaveActivity = (values: ActivityFormOutput): SaveActivity => ({
  name: values.name,
  key: values.key,
  category: values.category,
  partial: values.partial,
});

/** The search matches the name, the key or the category. */
export function matchesActivity(activity: Activity, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [activity.name, activity.key, activity.category].some((value) => value.toLowerCase().includes(needle));
}
