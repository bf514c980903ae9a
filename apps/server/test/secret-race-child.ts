/**
 * One of several processes racing to create DATA_DIR/app-secret (config.test.ts). Each announces itself
 * in the barrier directory and waits until all have, so their calls really happen at the same moment.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadOrCreateSecret } from '../src/config';

const [dataDir = '', barrier = '', count = '2'] = process.argv.slice(2);
writeFileSync(path.join(barrier, String(process.pid)), '');
const deadline = Date.now() + 20_000;
while (readdirSync(barrier).length < Number(count) && Date.now() < deadline) {
  // Spin: sleeping would spread the starts apart again.
}
process.stdout.write(loadOrCreateSecret(dataDir));
