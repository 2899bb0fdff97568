import { describe, expect, it } from 'vitest';
import { ApiError, ApiErrorCode } from '../../src/api/errors.js';
import type { KindContext } from '../../src/kinds/types.js';
import { canonicalize } from '../../src/plan/canonicalize.js';
import type { PlanMessage } from '../../src/plan/types.js';
import type { DesiredNode } from '../../src/state/types.js';
import { ctx } from '../kinds/context.js';

const byTypeId = (typeId: number): DesiredNode => ({
  kind: 'Entitlement',
  address: `tenant/acme/subscription/main/entitlement/${typeId}`,
  parentAddress: 'tenant/acme/subscription/main',
  fields: { typeId, entitlement: 2 },
});

describe('canonicalize: declared objects in the form the live side identifies them by', () => {
  it('Doc 2 §2.3: an entitlement declared by type id is addressed by the type name and keeps its written address', async () => {
    const problems: PlanMessage[] = [];
    const [node] = await canonicalize([byTypeId(2)], ctx, problems);
    expect(problems).toEqual([]);
    expect(node?.address).toBe('tenant/acme/subscription/main/entitlement/BE tollfree');
    expect(node?.declaredAs).toBe('tenant/acme/subscription/main/entitlement/2');
  });

  it('an unknown type id is the manifest problem SB_UNKNOWN_REFERENCE', async () => {
    const problems: PlanMessage[] = [];
    expect(await canonicalize([byTypeId(99)], ctx, problems)).toEqual([]);
    expect(problems).toEqual([
      expect.objectContaining({ code: 'SB_UNKNOWN_REFERENCE', address: byTypeId(99).address }),
    ]);
  });

  it('a type list that cannot be read fails the run naming its request, not as an unknown reference', async () => {
    const misread = new ApiError({
      code: ApiErrorCode.badResponse,
      method: 'GET',
      path: '/api/v01/draas/demo/public/entitlement_types',
      status: 200,
      retryable: false,
      detail: 'the answer cannot be read',
    });
    const failing: KindContext = { ...ctx, refs: { read: () => Promise.reject(misread) } };
    const problems: PlanMessage[] = [];
    await expect(canonicalize([byTypeId(2)], failing, problems)).rejects.toBe(misread);
    expect(problems).toEqual([]);
  });
});
