-- AlterEnum
ALTER TYPE "MatchMethod" ADD VALUE 'style_color_size';

