import { Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { PutPricesDto } from '@gateway/contracts';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../platform/http/declared-body';
import { adminBody } from '../shared/admin-body.declaration';
import { AdminController } from '../shared/admin-controller.decorator';
import { PricesService } from './prices.service';
import { PricesView } from './prices.view';

@AdminController('prices')
export class PricesController {
  constructor(private readonly prices: PricesService) {}

  @Get()
  @ApiOperation({ summary: 'Every price (micros as decimal strings)' })
  @ApiOkResponse({ type: PricesView })
  list(): Promise<PricesView> {
    return this.prices.list();
  }

  @Put()
  @ApiOperation({ summary: "Set the prices of the given models (each replaces that model's whole price)" })
  @DeclaresBody(adminBody(PutPricesDto))
  @ApiOkResponse({ type: PricesView, description: 'The prices written.' })
  put(@RouteBody() body: DeclaredBody<PutPricesDto>): Promise<PricesView> {
    return this.prices.put(body.fields());
  }
}
