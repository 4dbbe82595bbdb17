/**
 * zod compiles each object schema into a function (`new Function`) on its first parse: worth it for a server that
 * parses many requests, but ~30 ms of a one-shot command's start (the config alone). The CLI imports this module
 * before any other, so every command but `serve` parses without compiling.
 */
import { config } from 'zod';

if (process.argv[2] !== 'serve') config({ jitless: true });
