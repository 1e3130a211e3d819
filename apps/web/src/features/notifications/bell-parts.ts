/** What the bell loads apart from the shell, as one chunk: its live connection, its panel and the preferences' form. */
export { EmailPreferencesModal } from './email-preferences-modal';
export { LiveNotifications } from './live-notifications';
export { NotificationPanel } from './notification-panel';
