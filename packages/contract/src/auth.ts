import { z } from 'zod';
import { DisplayTextSchema } from './common.ts';
import { PASSWORD_CHARACTER_RULES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';

/** ADMIN runs the cinema; STAFF works the door and the counter; USER is a customer (DESIGN §6.5). */
export const RoleSchema = z.enum(['ADMIN', 'STAFF', 'USER']);
export type Role = z.infer<typeof RoleSchema>;

export const UserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: RoleSchema,
  /**
   * Whether the owner opened a verification link sent to this email (on the caller's own account: register,
   * sign-in, /user/me, profile). Counter sales reach only a verified account (README, "Walk-in orders").
   */
  emailVerified: z.boolean().optional(),
});
export type User = z.infer<typeof UserSchema>;

/** Server-enforced password policy: 8–72 characters with upper, lower, digit and symbol (PASSWORD_RULES' hints). */
export const PasswordSchema = PASSWORD_CHARACTER_RULES.reduce(
  (schema, rule) => schema.regex(rule.pattern, rule.message),
  z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
);

export const EmailSchema = z
  .string()
  .trim()
  .max(254, 'Email is too long')
  // The browser's own type="email" rule: it also accepts single-label domains such as admin@localhost.
  .pipe(z.email({ pattern: z.regexes.html5Email, message: 'Invalid email' }))
  .transform((e) => e.toLowerCase());

export const NameSchema = DisplayTextSchema('Name', 100);

export const RegisterBodySchema = z.object({
  name: NameSchema,
  email: EmailSchema,
  password: PasswordSchema,
});
export type RegisterBody = z.input<typeof RegisterBodySchema>;

export const LoginBodySchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: z.string().min(1, 'Password is required').max(1024),
});
export type LoginBody = z.input<typeof LoginBodySchema>;

export const AuthResponseSchema = z.object({ user: UserSchema, token: z.string() });
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

/** A new email needs the current password (DESIGN §6.1); a new name alone does not. */
export const ProfileBodySchema = z.object({
  name: NameSchema,
  email: EmailSchema,
  currentPassword: z.string().min(1).max(1024).optional(),
});
export type ProfileBody = z.input<typeof ProfileBodySchema>;

export const PasswordChangeBodySchema = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(1024),
  newPassword: PasswordSchema,
});
export type PasswordChangeBody = z.input<typeof PasswordChangeBodySchema>;

/** An account as admins find it at /admin/users. */
export const AdminUserSchema = UserSchema.extend({ createdAt: z.string() });
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const AdminUsersQuerySchema = z.object({
  /** Part of a name or email; empty lists the admins and staff first. */
  q: z.string().trim().max(100, 'Search is too long').optional(),
});
export const AdminUsersResponseSchema = z.object({ users: z.array(AdminUserSchema) });
export type AdminUsersResponse = z.infer<typeof AdminUsersResponseSchema>;

export const SetRoleBodySchema = z.object({ role: RoleSchema });
export type SetRoleBody = z.infer<typeof SetRoleBodySchema>;
