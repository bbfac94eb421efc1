import { applyDecorators, Controller, UseGuards, UsePipes } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard } from '../../platform/auth/admin-token.guard';
import { StorablePathParamsPipe } from './storable-path-params.pipe';

/**
 * A controller of the admin API at `/admin/<path>`: open to the admin token or a console session only, its path parameters
 * checked storable. One declaration, so that no admin controller can leave out the guard or the check.
 */
export function AdminController(path: string): ClassDecorator {
  return applyDecorators(
    ApiTags('admin'),
    ApiBearerAuth(),
    ApiCookieAuth('console-session'),
    Controller(`admin/${path}`),
    UseGuards(AdminTokenGuard),
    UsePipes(StorablePathParamsPipe),
  );
}
