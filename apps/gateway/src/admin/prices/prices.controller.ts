import { Body, Controller, Get, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PutPricesDto } from '@gateway/contracts';
import { AdminTokenGuard } from '../../auth/admin-token.guard';
import { PricesService } from './prices.service';
import { PricesView } from './prices.view';

@ApiTags('admin')
@ApiBearerAuth()
@Controller('admin/prices')
@UseGuards(AdminTokenGuard)
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
  @ApiBody({ type: PutPricesDto })
  @ApiOkResponse({ type: PricesView, description: 'The prices written.' })
  put(@Body() body: unknown): Promise<PricesView> {
    return this.prices.put(body);
  }
}
