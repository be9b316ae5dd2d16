import { z } from 'zod';
import { DisplayTextSchema } from './common.ts';

export const RoleSchema = z.enum(['ADMIN', 'USER']);
export type Role = z.infer<typeof RoleSchema>;

export const UserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: RoleSchema,
});
export type User = z.infer<typeof UserSchema>;

export const PASSWORD_RULES = [
  { test: (p: string) => p.length >= 8, hint: 'At least 8 characters' },
  { test: (p: string) => /[A-Z]/.test(p), hint: 'One uppercase letter' },
  { test: (p: string) => /[a-z]/.test(p), hint: 'One lowercase letter' },
  { test: (p: string) => /[0-9]/.test(p), hint: 'One number' },
  { test: (p: string) => /[^A-Za-z0-9]/.test(p), hint: 'One symbol' },
] as const;

/** Server-enforced password policy: 8–72 characters with upper, lower, digit and symbol. */
export const PasswordSchema = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(72, 'Password must be at most 72 characters')
  .regex(/[A-Z]/, 'Password must contain an uppercase letter')
  .regex(/[a-z]/, 'Password must contain a lowercase letter')
  .regex(/[0-9]/, 'Password must contain a number')
  .regex(/[^A-Za-z0-9]/, 'Password must contain a symbol');

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
