import type { z } from 'zod';
import type {
  CaptchaPurpose,
  LoginData,
  PermissionData,
  bindOpenTokenBody,
  changePasswordBody,
  findPasswordBody,
  loginBody,
  loginWithOpenTokenBody,
  signupBody,
} from '@se/core';
import { get, post, type RequestOptions } from './client.ts';

type Body<S extends z.ZodType> = z.output<S>;

export const login = (body: Body<typeof loginBody>) => post<LoginData>('/api/v1/auth/login', body);

export const loginWithToken = (token: string) => post<LoginData>('/api/v1/auth/login-with-token', { token });

export const loginWithOpenToken = (body: Body<typeof loginWithOpenTokenBody>) =>
  post<LoginData>('/api/v1/mini-program/login-with-open-token', body);

/** The server issues the token; the mini-program keeps it for login-with-open-token. */
export const bindOpenToken = (body: Pick<Body<typeof bindOpenTokenBody>, 'app_id'>) =>
  post<{ open_token: string }>('/api/v1/mini-program/bind-open-token', body);

export const sendEmailCaptcha = (email: string, purpose: CaptchaPurpose) =>
  post<{ resend_after?: number }>('/api/v1/auth/send-email-captcha', { email, purpose });

export const signup = (body: Body<typeof signupBody>) =>
  post<{ user_id: number }>('/api/v1/auth/signup', body);

export const findPassword = (body: Body<typeof findPasswordBody>) =>
  post<null>('/api/v1/auth/find-password', body);

/** Ends every session of the account, this one included: the caller signs in again. */
export const changePassword = (body: Body<typeof changePasswordBody>) =>
  post<null>('/api/v1/auth/change-password', body);

// Signing out goes to /login by itself; an already expired token must not add a redirect.
export const logout = () => post<null>('/api/v1/auth/logout', undefined, { redirectOnExpiry: false });

export const getPermission = (options?: Omit<RequestOptions, 'query'>) =>
  get<PermissionData>('/api/v1/auth/get-permission', undefined, options);
