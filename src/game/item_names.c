/*
 * item_names.c — what vanilla calls each item in messages: its translation
 * key (a block item's is its block's, block.minecraft.*; other items' their
 * own, item.minecraft.*) and its English name (en_us, for the console, the
 * log and RCON), and the display-name component of a stack
 * (ItemStack.getDisplayName: "[Stone]", hover shows the item).
 *
 * The names below are minecraft-data pc/1.20 language.json's text for each
 * item's key, in item id order (data/block_table.h ITEM_COUNT), NUL
 * separated. Regenerate with minecraft-data at the pinned version if the
 * item table changes: for each item of items.json, the key as item_key()
 * forms it, looked up in language.json.
 *
 * Invariant: names holds exactly ITEM_COUNT names; name_index() checks it once
 * and aborts otherwise (the table and data/ disagree: a build error).
 */
#include "game/item_names.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "data/block_table.h"

static const char names[] =
    "Air\000Stone\000Granite\000Polished Granite\000Diorite\000Polished Diorite\000Andesite\000"
    "Polished Andesite\000Deepslate\000Cobbled Deepslate\000Polished Deepslate\000Calcite\000"
    "Tuff\000Dripstone Block\000Grass Block\000Dirt\000Coarse Dirt\000Podzol\000Rooted Dirt\000"
    "Mud\000Crimson Nylium\000Warped Nylium\000Cobblestone\000Oak Planks\000Spruce Planks\000"
    "Birch Planks\000Jungle Planks\000Acacia Planks\000Cherry Planks\000Dark Oak Planks\000"
    "Mangrove Planks\000Bamboo Planks\000Crimson Planks\000Warped Planks\000Bamboo Mosaic\000"
    "Oak Sapling\000Spruce Sapling\000Birch Sapling\000Jungle Sapling\000Acacia Sapling\000"
    "Cherry Sapling\000Dark Oak Sapling\000Mangrove Propagule\000Bedrock\000Sand\000"
    "Suspicious Sand\000Suspicious Gravel\000Red Sand\000Gravel\000Coal Ore\000"
    "Deepslate Coal Ore\000Iron Ore\000Deepslate Iron Ore\000Copper Ore\000"
    "Deepslate Copper Ore\000Gold Ore\000Deepslate Gold Ore\000Redstone Ore\000"
    "Deepslate Redstone Ore\000Emerald Ore\000Deepslate Emerald Ore\000Lapis Lazuli Ore\000"
    "Deepslate Lapis Lazuli Ore\000Diamond Ore\000Deepslate Diamond Ore\000Nether Gold Ore\000"
    "Nether Quartz Ore\000Ancient Debris\000Block of Coal\000Block of Raw Iron\000"
    "Block of Raw Copper\000Block of Raw Gold\000Block of Amethyst\000Budding Amethyst\000"
    "Block of Iron\000Block of Copper\000Block of Gold\000Block of Diamond\000"
    "Block of Netherite\000Exposed Copper\000Weathered Copper\000Oxidized Copper\000"
    "Cut Copper\000Exposed Cut Copper\000Weathered Cut Copper\000Oxidized Cut Copper\000"
    "Cut Copper Stairs\000Exposed Cut Copper Stairs\000Weathered Cut Copper Stairs\000"
    "Oxidized Cut Copper Stairs\000Cut Copper Slab\000Exposed Cut Copper Slab\000"
    "Weathered Cut Copper Slab\000Oxidized Cut Copper Slab\000Waxed Block of Copper\000"
    "Waxed Exposed Copper\000Waxed Weathered Copper\000Waxed Oxidized Copper\000"
    "Waxed Cut Copper\000Waxed Exposed Cut Copper\000Waxed Weathered Cut Copper\000"
    "Waxed Oxidized Cut Copper\000Waxed Cut Copper Stairs\000"
    "Waxed Exposed Cut Copper Stairs\000Waxed Weathered Cut Copper Stairs\000"
    "Waxed Oxidized Cut Copper Stairs\000Waxed Cut Copper Slab\000"
    "Waxed Exposed Cut Copper Slab\000Waxed Weathered Cut Copper Slab\000"
    "Waxed Oxidized Cut Copper Slab\000Oak Log\000Spruce Log\000Birch Log\000Jungle Log\000"
    "Acacia Log\000Cherry Log\000Dark Oak Log\000Mangrove Log\000Mangrove Roots\000"
    "Muddy Mangrove Roots\000Crimson Stem\000Warped Stem\000Block of Bamboo\000"
    "Stripped Oak Log\000Stripped Spruce Log\000Stripped Birch Log\000Stripped Jungle Log\000"
    "Stripped Acacia Log\000Stripped Cherry Log\000Stripped Dark Oak Log\000"
    "Stripped Mangrove Log\000Stripped Crimson Stem\000Stripped Warped Stem\000"
    "Stripped Oak Wood\000Stripped Spruce Wood\000Stripped Birch Wood\000"
    "Stripped Jungle Wood\000Stripped Acacia Wood\000Stripped Cherry Wood\000"
    "Stripped Dark Oak Wood\000Stripped Mangrove Wood\000Stripped Crimson Hyphae\000"
    "Stripped Warped Hyphae\000Block of Stripped Bamboo\000Oak Wood\000Spruce Wood\000"
    "Birch Wood\000Jungle Wood\000Acacia Wood\000Cherry Wood\000Dark Oak Wood\000"
    "Mangrove Wood\000Crimson Hyphae\000Warped Hyphae\000Oak Leaves\000Spruce Leaves\000"
    "Birch Leaves\000Jungle Leaves\000Acacia Leaves\000Cherry Leaves\000Dark Oak Leaves\000"
    "Mangrove Leaves\000Azalea Leaves\000Flowering Azalea Leaves\000Sponge\000Wet Sponge\000"
    "Glass\000Tinted Glass\000Block of Lapis Lazuli\000Sandstone\000Chiseled Sandstone\000"
    "Cut Sandstone\000Cobweb\000Grass\000Fern\000Azalea\000Flowering Azalea\000Dead Bush\000"
    "Seagrass\000Sea Pickle\000White Wool\000Orange Wool\000Magenta Wool\000Light Blue Wool\000"
    "Yellow Wool\000Lime Wool\000Pink Wool\000Gray Wool\000Light Gray Wool\000Cyan Wool\000"
    "Purple Wool\000Blue Wool\000Brown Wool\000Green Wool\000Red Wool\000Black Wool\000"
    "Dandelion\000Poppy\000Blue Orchid\000Allium\000Azure Bluet\000Red Tulip\000"
    "Orange Tulip\000White Tulip\000Pink Tulip\000Oxeye Daisy\000Cornflower\000"
    "Lily of the Valley\000Wither Rose\000Torchflower\000Pitcher Plant\000Spore Blossom\000"
    "Brown Mushroom\000Red Mushroom\000Crimson Fungus\000Warped Fungus\000Crimson Roots\000"
    "Warped Roots\000Nether Sprouts\000Weeping Vines\000Twisting Vines\000Sugar Cane\000"
    "Kelp\000Moss Carpet\000Pink Petals\000Moss Block\000Hanging Roots\000Big Dripleaf\000"
    "Small Dripleaf\000Bamboo\000Oak Slab\000Spruce Slab\000Birch Slab\000Jungle Slab\000"
    "Acacia Slab\000Cherry Slab\000Dark Oak Slab\000Mangrove Slab\000Bamboo Slab\000"
    "Bamboo Mosaic Slab\000Crimson Slab\000Warped Slab\000Stone Slab\000Smooth Stone Slab\000"
    "Sandstone Slab\000Cut Sandstone Slab\000Petrified Oak Slab\000Cobblestone Slab\000"
    "Brick Slab\000Stone Brick Slab\000Mud Brick Slab\000Nether Brick Slab\000Quartz Slab\000"
    "Red Sandstone Slab\000Cut Red Sandstone Slab\000Purpur Slab\000Prismarine Slab\000"
    "Prismarine Brick Slab\000Dark Prismarine Slab\000Smooth Quartz Block\000"
    "Smooth Red Sandstone\000Smooth Sandstone\000Smooth Stone\000Bricks\000Bookshelf\000"
    "Chiseled Bookshelf\000Decorated Pot\000Mossy Cobblestone\000Obsidian\000Torch\000"
    "End Rod\000Chorus Plant\000Chorus Flower\000Purpur Block\000Purpur Pillar\000"
    "Purpur Stairs\000Monster Spawner\000Chest\000Crafting Table\000Farmland\000Furnace\000"
    "Ladder\000Cobblestone Stairs\000Snow\000Ice\000Snow Block\000Cactus\000Clay\000Jukebox\000"
    "Oak Fence\000Spruce Fence\000Birch Fence\000Jungle Fence\000Acacia Fence\000"
    "Cherry Fence\000Dark Oak Fence\000Mangrove Fence\000Bamboo Fence\000Crimson Fence\000"
    "Warped Fence\000Pumpkin\000Carved Pumpkin\000Jack o'Lantern\000Netherrack\000Soul Sand\000"
    "Soul Soil\000Basalt\000Polished Basalt\000Smooth Basalt\000Soul Torch\000Glowstone\000"
    "Infested Stone\000Infested Cobblestone\000Infested Stone Bricks\000"
    "Infested Mossy Stone Bricks\000Infested Cracked Stone Bricks\000"
    "Infested Chiseled Stone Bricks\000Infested Deepslate\000Stone Bricks\000"
    "Mossy Stone Bricks\000Cracked Stone Bricks\000Chiseled Stone Bricks\000Packed Mud\000"
    "Mud Bricks\000Deepslate Bricks\000Cracked Deepslate Bricks\000Deepslate Tiles\000"
    "Cracked Deepslate Tiles\000Chiseled Deepslate\000Reinforced Deepslate\000"
    "Brown Mushroom Block\000Red Mushroom Block\000Mushroom Stem\000Iron Bars\000Chain\000"
    "Glass Pane\000Melon\000Vines\000Glow Lichen\000Brick Stairs\000Stone Brick Stairs\000"
    "Mud Brick Stairs\000Mycelium\000Lily Pad\000Nether Bricks\000Cracked Nether Bricks\000"
    "Chiseled Nether Bricks\000Nether Brick Fence\000Nether Brick Stairs\000Sculk\000"
    "Sculk Vein\000Sculk Catalyst\000Sculk Shrieker\000Enchanting Table\000End Portal Frame\000"
    "End Stone\000End Stone Bricks\000Dragon Egg\000Sandstone Stairs\000Ender Chest\000"
    "Block of Emerald\000Oak Stairs\000Spruce Stairs\000Birch Stairs\000Jungle Stairs\000"
    "Acacia Stairs\000Cherry Stairs\000Dark Oak Stairs\000Mangrove Stairs\000Bamboo Stairs\000"
    "Bamboo Mosaic Stairs\000Crimson Stairs\000Warped Stairs\000Command Block\000Beacon\000"
    "Cobblestone Wall\000Mossy Cobblestone Wall\000Brick Wall\000Prismarine Wall\000"
    "Red Sandstone Wall\000Mossy Stone Brick Wall\000Granite Wall\000Stone Brick Wall\000"
    "Mud Brick Wall\000Nether Brick Wall\000Andesite Wall\000Red Nether Brick Wall\000"
    "Sandstone Wall\000End Stone Brick Wall\000Diorite Wall\000Blackstone Wall\000"
    "Polished Blackstone Wall\000Polished Blackstone Brick Wall\000Cobbled Deepslate Wall\000"
    "Polished Deepslate Wall\000Deepslate Brick Wall\000Deepslate Tile Wall\000Anvil\000"
    "Chipped Anvil\000Damaged Anvil\000Chiseled Quartz Block\000Block of Quartz\000"
    "Quartz Bricks\000Quartz Pillar\000Quartz Stairs\000White Terracotta\000"
    "Orange Terracotta\000Magenta Terracotta\000Light Blue Terracotta\000Yellow Terracotta\000"
    "Lime Terracotta\000Pink Terracotta\000Gray Terracotta\000Light Gray Terracotta\000"
    "Cyan Terracotta\000Purple Terracotta\000Blue Terracotta\000Brown Terracotta\000"
    "Green Terracotta\000Red Terracotta\000Black Terracotta\000Barrier\000Light\000Hay Bale\000"
    "White Carpet\000Orange Carpet\000Magenta Carpet\000Light Blue Carpet\000Yellow Carpet\000"
    "Lime Carpet\000Pink Carpet\000Gray Carpet\000Light Gray Carpet\000Cyan Carpet\000"
    "Purple Carpet\000Blue Carpet\000Brown Carpet\000Green Carpet\000Red Carpet\000"
    "Black Carpet\000Terracotta\000Packed Ice\000Dirt Path\000Sunflower\000Lilac\000"
    "Rose Bush\000Peony\000Tall Grass\000Large Fern\000White Stained Glass\000"
    "Orange Stained Glass\000Magenta Stained Glass\000Light Blue Stained Glass\000"
    "Yellow Stained Glass\000Lime Stained Glass\000Pink Stained Glass\000Gray Stained Glass\000"
    "Light Gray Stained Glass\000Cyan Stained Glass\000Purple Stained Glass\000"
    "Blue Stained Glass\000Brown Stained Glass\000Green Stained Glass\000Red Stained Glass\000"
    "Black Stained Glass\000White Stained Glass Pane\000Orange Stained Glass Pane\000"
    "Magenta Stained Glass Pane\000Light Blue Stained Glass Pane\000"
    "Yellow Stained Glass Pane\000Lime Stained Glass Pane\000Pink Stained Glass Pane\000"
    "Gray Stained Glass Pane\000Light Gray Stained Glass Pane\000Cyan Stained Glass Pane\000"
    "Purple Stained Glass Pane\000Blue Stained Glass Pane\000Brown Stained Glass Pane\000"
    "Green Stained Glass Pane\000Red Stained Glass Pane\000Black Stained Glass Pane\000"
    "Prismarine\000Prismarine Bricks\000Dark Prismarine\000Prismarine Stairs\000"
    "Prismarine Brick Stairs\000Dark Prismarine Stairs\000Sea Lantern\000Red Sandstone\000"
    "Chiseled Red Sandstone\000Cut Red Sandstone\000Red Sandstone Stairs\000"
    "Repeating Command Block\000Chain Command Block\000Magma Block\000Nether Wart Block\000"
    "Warped Wart Block\000Red Nether Bricks\000Bone Block\000Structure Void\000Shulker Box\000"
    "White Shulker Box\000Orange Shulker Box\000Magenta Shulker Box\000"
    "Light Blue Shulker Box\000Yellow Shulker Box\000Lime Shulker Box\000Pink Shulker Box\000"
    "Gray Shulker Box\000Light Gray Shulker Box\000Cyan Shulker Box\000Purple Shulker Box\000"
    "Blue Shulker Box\000Brown Shulker Box\000Green Shulker Box\000Red Shulker Box\000"
    "Black Shulker Box\000White Glazed Terracotta\000Orange Glazed Terracotta\000"
    "Magenta Glazed Terracotta\000Light Blue Glazed Terracotta\000Yellow Glazed Terracotta\000"
    "Lime Glazed Terracotta\000Pink Glazed Terracotta\000Gray Glazed Terracotta\000"
    "Light Gray Glazed Terracotta\000Cyan Glazed Terracotta\000Purple Glazed Terracotta\000"
    "Blue Glazed Terracotta\000Brown Glazed Terracotta\000Green Glazed Terracotta\000"
    "Red Glazed Terracotta\000Black Glazed Terracotta\000White Concrete\000Orange Concrete\000"
    "Magenta Concrete\000Light Blue Concrete\000Yellow Concrete\000Lime Concrete\000"
    "Pink Concrete\000Gray Concrete\000Light Gray Concrete\000Cyan Concrete\000"
    "Purple Concrete\000Blue Concrete\000Brown Concrete\000Green Concrete\000Red Concrete\000"
    "Black Concrete\000White Concrete Powder\000Orange Concrete Powder\000"
    "Magenta Concrete Powder\000Light Blue Concrete Powder\000Yellow Concrete Powder\000"
    "Lime Concrete Powder\000Pink Concrete Powder\000Gray Concrete Powder\000"
    "Light Gray Concrete Powder\000Cyan Concrete Powder\000Purple Concrete Powder\000"
    "Blue Concrete Powder\000Brown Concrete Powder\000Green Concrete Powder\000"
    "Red Concrete Powder\000Black Concrete Powder\000Turtle Egg\000Sniffer Egg\000"
    "Dead Tube Coral Block\000Dead Brain Coral Block\000Dead Bubble Coral Block\000"
    "Dead Fire Coral Block\000Dead Horn Coral Block\000Tube Coral Block\000"
    "Brain Coral Block\000Bubble Coral Block\000Fire Coral Block\000Horn Coral Block\000"
    "Tube Coral\000Brain Coral\000Bubble Coral\000Fire Coral\000Horn Coral\000"
    "Dead Brain Coral\000Dead Bubble Coral\000Dead Fire Coral\000Dead Horn Coral\000"
    "Dead Tube Coral\000Tube Coral Fan\000Brain Coral Fan\000Bubble Coral Fan\000"
    "Fire Coral Fan\000Horn Coral Fan\000Dead Tube Coral Fan\000Dead Brain Coral Fan\000"
    "Dead Bubble Coral Fan\000Dead Fire Coral Fan\000Dead Horn Coral Fan\000Blue Ice\000"
    "Conduit\000Polished Granite Stairs\000Smooth Red Sandstone Stairs\000"
    "Mossy Stone Brick Stairs\000Polished Diorite Stairs\000Mossy Cobblestone Stairs\000"
    "End Stone Brick Stairs\000Stone Stairs\000Smooth Sandstone Stairs\000"
    "Smooth Quartz Stairs\000Granite Stairs\000Andesite Stairs\000Red Nether Brick Stairs\000"
    "Polished Andesite Stairs\000Diorite Stairs\000Cobbled Deepslate Stairs\000"
    "Polished Deepslate Stairs\000Deepslate Brick Stairs\000Deepslate Tile Stairs\000"
    "Polished Granite Slab\000Smooth Red Sandstone Slab\000Mossy Stone Brick Slab\000"
    "Polished Diorite Slab\000Mossy Cobblestone Slab\000End Stone Brick Slab\000"
    "Smooth Sandstone Slab\000Smooth Quartz Slab\000Granite Slab\000Andesite Slab\000"
    "Red Nether Brick Slab\000Polished Andesite Slab\000Diorite Slab\000"
    "Cobbled Deepslate Slab\000Polished Deepslate Slab\000Deepslate Brick Slab\000"
    "Deepslate Tile Slab\000Scaffolding\000Redstone Dust\000Redstone Torch\000"
    "Block of Redstone\000Redstone Repeater\000Redstone Comparator\000Piston\000"
    "Sticky Piston\000Slime Block\000Honey Block\000Observer\000Hopper\000Dispenser\000"
    "Dropper\000Lectern\000Target\000Lever\000Lightning Rod\000Daylight Detector\000"
    "Sculk Sensor\000Calibrated Sculk Sensor\000Tripwire Hook\000Trapped Chest\000TNT\000"
    "Redstone Lamp\000Note Block\000Stone Button\000Polished Blackstone Button\000"
    "Oak Button\000Spruce Button\000Birch Button\000Jungle Button\000Acacia Button\000"
    "Cherry Button\000Dark Oak Button\000Mangrove Button\000Bamboo Button\000Crimson Button\000"
    "Warped Button\000Stone Pressure Plate\000Polished Blackstone Pressure Plate\000"
    "Light Weighted Pressure Plate\000Heavy Weighted Pressure Plate\000Oak Pressure Plate\000"
    "Spruce Pressure Plate\000Birch Pressure Plate\000Jungle Pressure Plate\000"
    "Acacia Pressure Plate\000Cherry Pressure Plate\000Dark Oak Pressure Plate\000"
    "Mangrove Pressure Plate\000Bamboo Pressure Plate\000Crimson Pressure Plate\000"
    "Warped Pressure Plate\000Iron Door\000Oak Door\000Spruce Door\000Birch Door\000"
    "Jungle Door\000Acacia Door\000Cherry Door\000Dark Oak Door\000Mangrove Door\000"
    "Bamboo Door\000Crimson Door\000Warped Door\000Iron Trapdoor\000Oak Trapdoor\000"
    "Spruce Trapdoor\000Birch Trapdoor\000Jungle Trapdoor\000Acacia Trapdoor\000"
    "Cherry Trapdoor\000Dark Oak Trapdoor\000Mangrove Trapdoor\000Bamboo Trapdoor\000"
    "Crimson Trapdoor\000Warped Trapdoor\000Oak Fence Gate\000Spruce Fence Gate\000"
    "Birch Fence Gate\000Jungle Fence Gate\000Acacia Fence Gate\000Cherry Fence Gate\000"
    "Dark Oak Fence Gate\000Mangrove Fence Gate\000Bamboo Fence Gate\000Crimson Fence Gate\000"
    "Warped Fence Gate\000Powered Rail\000Detector Rail\000Rail\000Activator Rail\000Saddle\000"
    "Minecart\000Minecart with Chest\000Minecart with Furnace\000Minecart with TNT\000"
    "Minecart with Hopper\000Carrot on a Stick\000Warped Fungus on a Stick\000Elytra\000"
    "Oak Boat\000Oak Boat with Chest\000Spruce Boat\000Spruce Boat with Chest\000Birch Boat\000"
    "Birch Boat with Chest\000Jungle Boat\000Jungle Boat with Chest\000Acacia Boat\000"
    "Acacia Boat with Chest\000Cherry Boat\000Cherry Boat with Chest\000Dark Oak Boat\000"
    "Dark Oak Boat with Chest\000Mangrove Boat\000Mangrove Boat with Chest\000Bamboo Raft\000"
    "Bamboo Raft with Chest\000Structure Block\000Jigsaw Block\000Turtle Shell\000Scute\000"
    "Flint and Steel\000Apple\000Bow\000Arrow\000Coal\000Charcoal\000Diamond\000Emerald\000"
    "Lapis Lazuli\000Nether Quartz\000Amethyst Shard\000Raw Iron\000Iron Ingot\000"
    "Raw Copper\000Copper Ingot\000Raw Gold\000Gold Ingot\000Netherite Ingot\000"
    "Netherite Scrap\000Wooden Sword\000Wooden Shovel\000Wooden Pickaxe\000Wooden Axe\000"
    "Wooden Hoe\000Stone Sword\000Stone Shovel\000Stone Pickaxe\000Stone Axe\000Stone Hoe\000"
    "Golden Sword\000Golden Shovel\000Golden Pickaxe\000Golden Axe\000Golden Hoe\000"
    "Iron Sword\000Iron Shovel\000Iron Pickaxe\000Iron Axe\000Iron Hoe\000Diamond Sword\000"
    "Diamond Shovel\000Diamond Pickaxe\000Diamond Axe\000Diamond Hoe\000Netherite Sword\000"
    "Netherite Shovel\000Netherite Pickaxe\000Netherite Axe\000Netherite Hoe\000Stick\000"
    "Bowl\000Mushroom Stew\000String\000Feather\000Gunpowder\000Wheat Seeds\000Wheat\000"
    "Bread\000Leather Cap\000Leather Tunic\000Leather Pants\000Leather Boots\000"
    "Chainmail Helmet\000Chainmail Chestplate\000Chainmail Leggings\000Chainmail Boots\000"
    "Iron Helmet\000Iron Chestplate\000Iron Leggings\000Iron Boots\000Diamond Helmet\000"
    "Diamond Chestplate\000Diamond Leggings\000Diamond Boots\000Golden Helmet\000"
    "Golden Chestplate\000Golden Leggings\000Golden Boots\000Netherite Helmet\000"
    "Netherite Chestplate\000Netherite Leggings\000Netherite Boots\000Flint\000Raw Porkchop\000"
    "Cooked Porkchop\000Painting\000Golden Apple\000Enchanted Golden Apple\000Oak Sign\000"
    "Spruce Sign\000Birch Sign\000Jungle Sign\000Acacia Sign\000Cherry Sign\000"
    "Dark Oak Sign\000Mangrove Sign\000Bamboo Sign\000Crimson Sign\000Warped Sign\000"
    "Oak Hanging Sign\000Spruce Hanging Sign\000Birch Hanging Sign\000Jungle Hanging Sign\000"
    "Acacia Hanging Sign\000Cherry Hanging Sign\000Dark Oak Hanging Sign\000"
    "Mangrove Hanging Sign\000Bamboo Hanging Sign\000Crimson Hanging Sign\000"
    "Warped Hanging Sign\000Bucket\000Water Bucket\000Lava Bucket\000Powder Snow Bucket\000"
    "Snowball\000Leather\000Milk Bucket\000Bucket of Pufferfish\000Bucket of Salmon\000"
    "Bucket of Cod\000Bucket of Tropical Fish\000Bucket of Axolotl\000Bucket of Tadpole\000"
    "Brick\000Clay Ball\000Dried Kelp Block\000Paper\000Book\000Slimeball\000Egg\000Compass\000"
    "Recovery Compass\000Bundle\000Fishing Rod\000Clock\000Spyglass\000Glowstone Dust\000"
    "Raw Cod\000Raw Salmon\000Tropical Fish\000Pufferfish\000Cooked Cod\000Cooked Salmon\000"
    "Ink Sac\000Glow Ink Sac\000Cocoa Beans\000White Dye\000Orange Dye\000Magenta Dye\000"
    "Light Blue Dye\000Yellow Dye\000Lime Dye\000Pink Dye\000Gray Dye\000Light Gray Dye\000"
    "Cyan Dye\000Purple Dye\000Blue Dye\000Brown Dye\000Green Dye\000Red Dye\000Black Dye\000"
    "Bone Meal\000Bone\000Sugar\000Cake\000White Bed\000Orange Bed\000Magenta Bed\000"
    "Light Blue Bed\000Yellow Bed\000Lime Bed\000Pink Bed\000Gray Bed\000Light Gray Bed\000"
    "Cyan Bed\000Purple Bed\000Blue Bed\000Brown Bed\000Green Bed\000Red Bed\000Black Bed\000"
    "Cookie\000Map\000Shears\000Melon Slice\000Dried Kelp\000Pumpkin Seeds\000Melon Seeds\000"
    "Raw Beef\000Steak\000Raw Chicken\000Cooked Chicken\000Rotten Flesh\000Ender Pearl\000"
    "Blaze Rod\000Ghast Tear\000Gold Nugget\000Nether Wart\000Potion\000Glass Bottle\000"
    "Spider Eye\000Fermented Spider Eye\000Blaze Powder\000Magma Cream\000Brewing Stand\000"
    "Cauldron\000Eye of Ender\000Glistering Melon Slice\000Allay Spawn Egg\000"
    "Axolotl Spawn Egg\000Bat Spawn Egg\000Bee Spawn Egg\000Blaze Spawn Egg\000"
    "Cat Spawn Egg\000Camel Spawn Egg\000Cave Spider Spawn Egg\000Chicken Spawn Egg\000"
    "Cod Spawn Egg\000Cow Spawn Egg\000Creeper Spawn Egg\000Dolphin Spawn Egg\000"
    "Donkey Spawn Egg\000Drowned Spawn Egg\000Elder Guardian Spawn Egg\000"
    "Ender Dragon Spawn Egg\000Enderman Spawn Egg\000Endermite Spawn Egg\000"
    "Evoker Spawn Egg\000Fox Spawn Egg\000Frog Spawn Egg\000Ghast Spawn Egg\000"
    "Glow Squid Spawn Egg\000Goat Spawn Egg\000Guardian Spawn Egg\000Hoglin Spawn Egg\000"
    "Horse Spawn Egg\000Husk Spawn Egg\000Iron Golem Spawn Egg\000Llama Spawn Egg\000"
    "Magma Cube Spawn Egg\000Mooshroom Spawn Egg\000Mule Spawn Egg\000Ocelot Spawn Egg\000"
    "Panda Spawn Egg\000Parrot Spawn Egg\000Phantom Spawn Egg\000Pig Spawn Egg\000"
    "Piglin Spawn Egg\000Piglin Brute Spawn Egg\000Pillager Spawn Egg\000"
    "Polar Bear Spawn Egg\000Pufferfish Spawn Egg\000Rabbit Spawn Egg\000Ravager Spawn Egg\000"
    "Salmon Spawn Egg\000Sheep Spawn Egg\000Shulker Spawn Egg\000Silverfish Spawn Egg\000"
    "Skeleton Spawn Egg\000Skeleton Horse Spawn Egg\000Slime Spawn Egg\000Sniffer Spawn Egg\000"
    "Snow Golem Spawn Egg\000Spider Spawn Egg\000Squid Spawn Egg\000Stray Spawn Egg\000"
    "Strider Spawn Egg\000Tadpole Spawn Egg\000Trader Llama Spawn Egg\000"
    "Tropical Fish Spawn Egg\000Turtle Spawn Egg\000Vex Spawn Egg\000Villager Spawn Egg\000"
    "Vindicator Spawn Egg\000Wandering Trader Spawn Egg\000Warden Spawn Egg\000"
    "Witch Spawn Egg\000Wither Spawn Egg\000Wither Skeleton Spawn Egg\000Wolf Spawn Egg\000"
    "Zoglin Spawn Egg\000Zombie Spawn Egg\000Zombie Horse Spawn Egg\000"
    "Zombie Villager Spawn Egg\000Zombified Piglin Spawn Egg\000Bottle o' Enchanting\000"
    "Fire Charge\000Book and Quill\000Written Book\000Item Frame\000Glow Item Frame\000"
    "Flower Pot\000Carrot\000Potato\000Baked Potato\000Poisonous Potato\000Empty Map\000"
    "Golden Carrot\000Skeleton Skull\000Wither Skeleton Skull\000Player Head\000Zombie Head\000"
    "Creeper Head\000Dragon Head\000Piglin Head\000Nether Star\000Pumpkin Pie\000"
    "Firework Rocket\000Firework Star\000Enchanted Book\000Nether Brick\000Prismarine Shard\000"
    "Prismarine Crystals\000Raw Rabbit\000Cooked Rabbit\000Rabbit Stew\000Rabbit's Foot\000"
    "Rabbit Hide\000Armor Stand\000Iron Horse Armor\000Golden Horse Armor\000"
    "Diamond Horse Armor\000Leather Horse Armor\000Lead\000Name Tag\000"
    "Minecart with Command Block\000Raw Mutton\000Cooked Mutton\000White Banner\000"
    "Orange Banner\000Magenta Banner\000Light Blue Banner\000Yellow Banner\000Lime Banner\000"
    "Pink Banner\000Gray Banner\000Light Gray Banner\000Cyan Banner\000Purple Banner\000"
    "Blue Banner\000Brown Banner\000Green Banner\000Red Banner\000Black Banner\000"
    "End Crystal\000Chorus Fruit\000Popped Chorus Fruit\000Torchflower Seeds\000Pitcher Pod\000"
    "Beetroot\000Beetroot Seeds\000Beetroot Soup\000Dragon's Breath\000Splash Potion\000"
    "Spectral Arrow\000Tipped Arrow\000Lingering Potion\000Shield\000Totem of Undying\000"
    "Shulker Shell\000Iron Nugget\000Knowledge Book\000Debug Stick\000Music Disc\000"
    "Music Disc\000Music Disc\000Music Disc\000Music Disc\000Music Disc\000Music Disc\000"
    "Music Disc\000Music Disc\000Music Disc\000Music Disc\000Music Disc\000Music Disc\000"
    "Music Disc\000Music Disc\000Music Disc\000Disc Fragment\000Trident\000Phantom Membrane\000"
    "Nautilus Shell\000Heart of the Sea\000Crossbow\000Suspicious Stew\000Loom\000"
    "Banner Pattern\000Banner Pattern\000Banner Pattern\000Banner Pattern\000Banner Pattern\000"
    "Banner Pattern\000Goat Horn\000Composter\000Barrel\000Smoker\000Blast Furnace\000"
    "Cartography Table\000Fletching Table\000Grindstone\000Smithing Table\000Stonecutter\000"
    "Bell\000Lantern\000Soul Lantern\000Sweet Berries\000Glow Berries\000Campfire\000"
    "Soul Campfire\000Shroomlight\000Honeycomb\000Bee Nest\000Beehive\000Honey Bottle\000"
    "Honeycomb Block\000Lodestone\000Crying Obsidian\000Blackstone\000Blackstone Slab\000"
    "Blackstone Stairs\000Gilded Blackstone\000Polished Blackstone\000"
    "Polished Blackstone Slab\000Polished Blackstone Stairs\000Chiseled Polished Blackstone\000"
    "Polished Blackstone Bricks\000Polished Blackstone Brick Slab\000"
    "Polished Blackstone Brick Stairs\000Cracked Polished Blackstone Bricks\000"
    "Respawn Anchor\000Candle\000White Candle\000Orange Candle\000Magenta Candle\000"
    "Light Blue Candle\000Yellow Candle\000Lime Candle\000Pink Candle\000Gray Candle\000"
    "Light Gray Candle\000Cyan Candle\000Purple Candle\000Blue Candle\000Brown Candle\000"
    "Green Candle\000Red Candle\000Black Candle\000Small Amethyst Bud\000"
    "Medium Amethyst Bud\000Large Amethyst Bud\000Amethyst Cluster\000Pointed Dripstone\000"
    "Ochre Froglight\000Verdant Froglight\000Pearlescent Froglight\000Frogspawn\000"
    "Echo Shard\000Brush\000Smithing Template\000Smithing Template\000Smithing Template\000"
    "Smithing Template\000Smithing Template\000Smithing Template\000Smithing Template\000"
    "Smithing Template\000Smithing Template\000Smithing Template\000Smithing Template\000"
    "Smithing Template\000Smithing Template\000Smithing Template\000Smithing Template\000"
    "Smithing Template\000Smithing Template\000Angler Pottery Sherd\000Archer Pottery Sherd\000"
    "Arms Up Pottery Sherd\000Blade Pottery Sherd\000Brewer Pottery Sherd\000"
    "Burn Pottery Sherd\000Danger Pottery Sherd\000Explorer Pottery Sherd\000"
    "Friend Pottery Sherd\000Heart Pottery Sherd\000Heartbreak Pottery Sherd\000"
    "Howl Pottery Sherd\000Miner Pottery Sherd\000Mourner Pottery Sherd\000"
    "Plenty Pottery Sherd\000Prize Pottery Sherd\000Sheaf Pottery Sherd\000"
    "Shelter Pottery Sherd\000Skull Pottery Sherd\000Snort Pottery Sherd\000";

static const char *const *name_index(void)
{
    static const char *at[ITEM_COUNT];
    static bool built;
    if (!built) {
        const char *p = names, *end = names + sizeof names - 1;
        for (int i = 0; i < ITEM_COUNT; i++) {
            if (p >= end) abort(); /* fewer names than items */
            at[i] = p;
            p += strlen(p) + 1;
        }
        if (p != end) abort(); /* more names than items */
        built = true;
    }
    return at;
}

const char *item_english(int item)
{
    return item >= 0 && item < ITEM_COUNT ? name_index()[item] : "Air";
}

void item_key(int item, char *out, size_t cap)
{
    const char *n = item >= 0 && item < ITEM_COUNT ? item_info[item].name : "air";
    size_t len = strlen(n);
    static const char tmpl[] = "_smithing_template";
    if (len > sizeof tmpl - 1 && strcmp(n + len - (sizeof tmpl - 1), tmpl) == 0)
        snprintf(out, cap, "item.minecraft.smithing_template");
    else if (item > 0 && item < ITEM_COUNT && item_info[item].block_state != 0 &&
             strcmp(n, "wheat") != 0 && strcmp(n, "nether_wart") != 0)
        snprintf(out, cap, "block.minecraft.%s", n); /* a BlockItem */
    else
        snprintf(out, cap, "item.minecraft.%s", n);
}

void item_display_json(buf_t *j, int item, int count)
{
    char key[96];
    item_key(item, key, sizeof key);
    const char *n = item >= 0 && item < ITEM_COUNT ? item_info[item].name : "air";
    buf_lit(j, "{\"translate\":\"chat.square_brackets\",\"with\":[{\"text\":\"\",\"extra\":[{"
               "\"translate\":\"");
    buf_append(j, key, strlen(key));
    buf_lit(j, "\"}]}]");
    if (item > 0) {
        char c[16];
        snprintf(c, sizeof c, "%d", count);
        buf_lit(j, ",\"color\":\"white\",\"hoverEvent\":{\"action\":\"show_item\",\"contents\":{"
                   "\"id\":\"minecraft:");
        buf_append(j, n, strlen(n));
        buf_lit(j, "\",\"count\":");
        buf_append(j, c, strlen(c));
        buf_lit(j, "}}");
    }
    buf_lit(j, "}");
}

void item_display_plain(buf_t *out, int item)
{
    const char *en = item_english(item);
    buf_lit(out, "[");
    buf_append(out, en, strlen(en));
    buf_lit(out, "]");
}
