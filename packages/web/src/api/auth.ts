import { AUTH_API } from '@se/core';
import type { z } from 'zod';
import type {
  CaptchaPurpose,
  LoginData,
  OdTokenStatus,
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

export const login = (body: Body<typeof loginBody>) => post<LoginData>(AUTH_API.login, body);

export const loginWithToken = (token: string) => post<LoginData>(AUTH_API.loginWithToken, { token });

export const loginWithOpenToken = (body: Body<typeof loginWithOpenTokenBody>) =>
  post<LoginData>(AUTH_API.loginWithOpenToken, body);

/** The server issues the token; the mini-program keeps it for login-with-open-token. */
export const bindOpenToken = (body: Pick<Body<typeof bindOpenTokenBody>, 'app_id'>) =>
  post<{ open_token: string }>(AUTH_API.bindOpenToken, body);

export const sendEmailCaptcha = (email: string, purpose: CaptchaPurpose) =>
  post<{ resend_after?: number }>(AUTH_API.sendEmailCaptcha, { email, purpose });

export const signup = (body: Body<typeof signupBody>) => post<{ user_id: number }>(AUTH_API.signup, body);

export const findPassword = (body: Body<typeof findPasswordBody>) => post<null>(AUTH_API.findPassword, body);

/** Ends every session of the account, this one included: the caller signs in again. */
export const changePassword = (body: Body<typeof changePasswordBody>) =>
  post<null>(AUTH_API.changePassword, body);

// Signing out goes to /login by itself; an already expired token must not add a redirect.
export const logout = () => post<null>(AUTH_API.logout, undefined, { redirectOnExpiry: false });

export const getPermission = (options?: Omit<RequestOptions, 'query'>) =>
  get<PermissionData>(AUTH_API.getPermission, undefined, options);

/** Whether the caller has a long-lived login token (od_token), and since when. */
export const getOdTokenStatus = () => get<OdTokenStatus>(AUTH_API.odToken);

/** A new od_token, shown this once; the old one stops working at once. */
export const resetOdToken = () => post<{ od_token: string }>(AUTH_API.resetOdToken);
