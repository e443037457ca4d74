// Store contract, users and personal tokens: called inside the storeContract suite.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { TroveError } from '../../src/errors.js';
import { type Store, TOKEN_TOUCH_INTERVAL_MS } from '../../src/store/types.js';

const hash = (seed: string) => createHash('sha256').update(`contract-token-${seed}`).digest('hex');
const T = Date.UTC(2026, 5, 1, 8);

async function rejectsWith(call: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(call, (err: unknown) => err instanceof TroveError && err.code === code);
}

export function usersContract(store: () => Store): void {
  it('creates users with a token, finds them by name and by token hash, lists them by name', async () => {
    const before = Date.now();
    const zoe = await store().createUser('u-zoe', false, hash('zoe'));
    const adam = await store().createUser('u-adam', true, hash('adam'));
    assert.equal(zoe.name, 'u-zoe');
    assert.equal(zoe.isAdmin, false);
    assert.equal(adam.isAdmin, true);
    assert.notEqual(zoe.id, adam.id);
    assert.ok(zoe.createdAt >= before && zoe.createdAt <= Date.now());
    assert.equal(zoe.tokenCreatedAt, zoe.createdAt);
    assert.equal(zoe.tokenLastUsedAt, null);
    assert.deepEqual(await store().getUser('u-zoe'), zoe);
    assert.equal(await store().getUser('u-nobody'), undefined);
    assert.equal((await store().userByTokenHash(hash('adam'), T))?.name, 'u-adam');
    assert.equal(await store().userByTokenHash(hash('unknown'), T), undefined);
    const names = (await store().listUsers()).map((u) => u.name).filter((n) => n.startsWith('u-'));
    assert.deepEqual(names, ['u-adam', 'u-zoe']);
  });

  it('refuses a taken name with CONFLICT and keeps nothing of the refused user', async () => {
    await store().createUser('u-taken', false, hash('taken-1'));
    await rejectsWith(store().createUser('u-taken', true, hash('taken-2')), 'CONFLICT');
    assert.equal(await store().userByTokenHash(hash('taken-2'), T), undefined);
    const taken = await store().getUser('u-taken');
    assert.equal(taken?.isAdmin, false);
    assert.equal((await store().listUsers()).filter((u) => u.name === 'u-taken').length, 1);
  });

  it('replaces a token: the new one works at once, the old one stops at once, other users keep theirs', async () => {
    const ann = await store().createUser('u-ann', false, hash('ann-1'));
    const ben = await store().createUser('u-ben', false, hash('ben-1'));
    const replaced = await store().replaceToken(ann.id, hash('ann-2'));
    assert.equal(replaced?.id, ann.id);
    assert.ok(replaced!.tokenCreatedAt! >= ann.tokenCreatedAt!);
    assert.equal(await store().userByTokenHash(hash('ann-1'), T), undefined);
    assert.equal((await store().userByTokenHash(hash('ann-2'), T))?.id, ann.id);
    // And again: the second token goes the same way as the first.
    await store().replaceToken(ann.id, hash('ann-3'));
    assert.equal(await store().userByTokenHash(hash('ann-2'), T), undefined);
    assert.equal((await store().userByTokenHash(hash('ann-3'), T))?.id, ann.id);
    assert.equal((await store().userByTokenHash(hash('ben-1'), T))?.id, ben.id);
    // Replacing another user's token leaves this one alone.
    await store().replaceToken(ben.id, hash('ben-2'));
    assert.equal((await store().userByTokenHash(hash('ann-3'), T))?.id, ann.id);
    assert.equal(await store().replaceToken(987_654, hash('nobody')), undefined);
    assert.equal(await store().userByTokenHash(hash('nobody'), T), undefined);
  });

  it('deletes a user with their tokens; the name can be taken again without the old token', async () => {
    await store().createUser('u-gone', true, hash('gone-1'));
    assert.equal(await store().deleteUser('u-gone'), true);
    assert.equal(await store().deleteUser('u-gone'), false);
    assert.equal(await store().getUser('u-gone'), undefined);
    assert.equal(await store().userByTokenHash(hash('gone-1'), T), undefined);
    assert.ok(!(await store().listUsers()).some((u) => u.name === 'u-gone'));
    const again = await store().createUser('u-gone', false, hash('gone-2'));
    assert.equal(again.isAdmin, false);
    assert.equal(await store().userByTokenHash(hash('gone-1'), T), undefined);
    assert.equal((await store().userByTokenHash(hash('gone-2'), T))?.id, again.id);
    assert.equal((await store().getUser('u-zoe'))?.name, 'u-zoe', 'other users stay');
  });

  it('records token use at most once per interval', async () => {
    await store().createUser('u-clock', false, hash('clock'));
    const used = async (now: number) => (await store().userByTokenHash(hash('clock'), now))?.tokenLastUsedAt;
    assert.equal(await used(T), T);
    assert.equal(await used(T + 1000), T);
    assert.equal(await used(T + TOKEN_TOUCH_INTERVAL_MS - 1), T);
    assert.equal((await store().getUser('u-clock'))?.tokenLastUsedAt, T);
    assert.equal(await used(T + TOKEN_TOUCH_INTERVAL_MS), T + TOKEN_TOUCH_INTERVAL_MS);
    assert.equal(await used(T + TOKEN_TOUCH_INTERVAL_MS + 5), T + TOKEN_TOUCH_INTERVAL_MS);
    // A clock that went back never moves the record backwards.
    assert.equal(await used(T - 10 * TOKEN_TOUCH_INTERVAL_MS), T + TOKEN_TOUCH_INTERVAL_MS);
    assert.equal((await store().getUser('u-clock'))?.tokenLastUsedAt, T + TOKEN_TOUCH_INTERVAL_MS);
  });
}
