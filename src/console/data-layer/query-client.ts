/**
 * The console's one query client (src/runtime/data-layer/client.ts for its defaults): every page of
 * the signed-in console reads through it, so a list, record, option list or home figure seen a
 * moment ago shows again without a request. Connected for good to the runtime's data events: a
 * write invalidates, sign-out clears.
 */
import { connectDataClient, createDataClient } from '../../runtime/data-layer/client.js';

export const consoleQueryClient = createDataClient();
connectDataClient(consoleQueryClient);
