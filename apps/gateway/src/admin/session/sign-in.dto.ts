import { StringField } from '@gateway/contracts';

/** Body of `POST /admin/session`. */
export class SignInDto {
  @StringField({
    description:
      'The admin token (ADMIN_TOKEN). It is checked, never stored: the cookie carries a random id.',
    nonEmpty: true,
    maxLength: 1024,
  })
  token: string;
}
