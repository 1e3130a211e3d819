import type { ApiToken } from '@opsdeck/contract/tokens';
import { restResource } from './rest-resource';

/** The signed-in user's API tokens (GET /api/token); no company plays a part. */
const tokens = restResource<ApiToken>('tokens', { list: '/token', one: '/token' });

export const tokenKeys = tokens.keys;
export const tokensQueryOptions = tokens.listOptions;
