/** Account roles, apart from the zod schemas in ./profile so boot code can use them without zod. */
export const ROLE = { ACCOUNT_OWNER: 1, ADMINISTRATOR: 2, STANDARD_USER: 3, LIMITED_ACCESS: 4 } as const;
export type RoleId = (typeof ROLE)[keyof typeof ROLE];

/** Account owners and administrators may edit the other users of their organisation (EDIT_USER). */
export const canEditUsers = (roleId: number | null | undefined): boolean => roleId === ROLE.ACCOUNT_OWNER || roleId === ROLE.ADMINISTRATOR;
