/** The telephony screens' paths: the manifest's routes and nav, the commands that navigate, the screens' links. */
export const CALLS_PATH = '/calls';
export const TRANSFER_PATH = '/calls/transfer';
export const DIAL_PATH = '/calls/dial';
