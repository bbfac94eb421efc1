import { Module } from '@nestjs/common';
import { StoredFilesController } from './stored-files.controller';
import { StoredFilesService } from './stored-files.service';

/** Serves the object store's files under /files/{id}. */
@Module({ controllers: [StoredFilesController], providers: [StoredFilesService] })
export class StoredFilesModule {}
