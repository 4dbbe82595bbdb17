/** The CLI from the compiled modules (bin/tidepool.js runs the bundle instead when it is fresh). */
import { main } from './cli-main.js';

await main(process.argv.slice(2));
